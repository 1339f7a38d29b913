/**
 * Document 1's rules for client agents, in the words the MCP door gives agents (docs/agents.md#mcp-tools): the
 * server's instructions, each tool's description, the questions elicitation puts to the user, and the confirmation
 * codes of clients without elicitation (docs/agents.md#confirmation-without-elicitation). Pure: no I/O.
 */
import { sha256Hex } from '../src/kernel/tokens.ts';
import type { OrderInput } from '../src/orders/order-input.ts';
import { holdPhrase } from '../src/orders/order-texts.ts';

/** The rules, with the configured hold (HOLD_SECONDS) in words. */
export const agentRules = (holdSeconds: number): string => [
  'Rules for agents acting for a user (document 1):',
  '1. Before creating an order, confirm size, font, thread, stitchText, name and email with the user. Spell stitchText back letter by letter: embroidery is permanent. Choose an option for the user only if the user asked.',
  '2. Ask the user how to pay and offer both ways (the demo card, nothing charged; or their own card or wallet on payUrl, $1.00 charged and refunded); never choose for the user. Confirm the payment with the user unless the user\'s own settings allow paying without asking.',
  '3. Every order and pay answer carries `message` (relay it to the user) and `nextAction` (follow it).',
  `4. Tell the user the hold deadline (\`holdUntilText\`): an unpaid order is cancelled after ${holdPhrase(holdSeconds)}.`,
  '5. On an error, relay `error`. Retry only when `retryable` is true.',
].join('\n');

export const instructions = (holdSeconds: number): string => [
  'Order one custom embroidered laptop sleeve at the event. Flow: get_sleeve_options, create_order, pay_order, get_order.',
  'Each order is also a resource sleeve://orders/{orderNumber}?t={payToken}: subscribe to it to hear of every status change (e.g. when the sleeve is ready).',
  'get_event_info answers the agenda, speakers, venue, food and swag, and where and when sleeves are picked up.',
  agentRules(holdSeconds),
].join('\n\n');

export const DESCRIPTIONS = {
  get_sleeve_options:
    'The sizes, fonts, threads and stitch text limit (charLimit) offered now. They change during the event: read them before every order, never assume them.',
  create_order: (holdSeconds: number) => [
    `Create the order (held unpaid for ${holdPhrase(holdSeconds)}).`,
    'Confirm every detail with the user first and spell stitchText back letter by letter; choose an option only if the user asked.',
    'When your client supports elicitation the server asks the user itself. Otherwise the first call answers the details to confirm and a confirmation code: ask the user, then call again with the same arguments and that `confirmation`.',
    'Relay `message`, follow `nextAction`, tell the user `holdUntilText`; keep `payToken`.',
  ].join(' '),
  pay_order: [
    'Pay an order. Ask the user how to pay and offer both ways: the demo card (method vendor_card, nothing charged) or their own card or wallet on the `payUrl` page ($1.00, refunded). Never choose for the user.',
    'Omit `method` on the first call unless the user already said how they want to pay.',
    'When your client supports elicitation the server asks the user itself. Otherwise the first call answers the choices (the demo card with its confirmation code, the pay page with its `payUrl`): ask the user, then call again with vendor_card and its `confirmation`, or open `payUrl` for them.',
    'Relay `message`, follow `nextAction`. If `alreadyPaid` is true, never pay again.',
  ].join(' '),
  get_order: 'The order and its status now (awaiting payment, received, in progress, ready, collected, cancelled). Relay `message`, follow `nextAction`.',
  get_event_info: 'The event information as plain text: agenda, speakers, venue, food and swag, and where and when sleeves are picked up.',
  list_orders: 'Staff only (Authorization: Bearer ADMIN_TOKEN): orders by number, oldest first, optionally only some statuses.',
  advance_order: 'Staff only: move a paid order forward (received → in progress → ready; never back).',
  collect_order: "Staff only: hand over a ready order; the collector's first and last name must match the order's.",
  cancel_order: 'Staff only: cancel an order not collected, with a reason; a paid order is refunded.',
} as const;

/** What a host shows a person for each tool (the name is for the model). */
export const TITLES = {
  get_sleeve_options: 'Sleeve options offered now',
  create_order: 'Order a sleeve',
  pay_order: 'Pay for an order',
  get_order: 'Order status',
  get_event_info: 'Event information',
  list_orders: 'Staff: list orders',
  advance_order: 'Staff: move an order forward',
  collect_order: 'Staff: hand over an order',
  cancel_order: 'Staff: cancel an order',
} as const satisfies Record<keyof typeof DESCRIPTIONS, string>;

/** "ADA 1815" → `A, D, A, space, 1, 8, 1, 5`: how the user checks what will be embroidered. */
export function spellOut(text: string): string {
  const names: Record<string, string> = { ' ': 'space', '.': 'full stop', '-': 'hyphen', '&': 'ampersand' };
  return Array.from(text, (c) => names[c] ?? (/[A-Za-z]/u.test(c) ? (c === c.toUpperCase() ? `capital ${c}` : `small ${c}`) : c)).join(', ');
}

/** The question create_order puts to the user (by elicitation, or through the agent). */
export function orderConfirmationText(input: OrderInput, holdSeconds: number): string {
  return [
    'Please confirm your sleeve order. Embroidery is permanent: check the stitch text letter by letter.',
    `Size: ${input.size}. Font: ${input.font}. Thread: ${input.thread}.`,
    `Stitch text: "${input.stitchText}" (${input.stitchText.length} character${input.stitchText.length === 1 ? '' : 's'}), spelled: ${spellOut(input.stitchText)}.`,
    `Name (checked at pickup): ${input.name}. Email: ${input.email}.`,
    `The order is then held unpaid for ${holdPhrase(holdSeconds)}.`,
  ].join('\n');
}

/** The question pay_order puts to the user: both ways, neither chosen. */
export function payChoiceText(orderNumber: string, holdUntilText: string | undefined): string {
  return [
    `How would you like to pay for sleeve order ${orderNumber}?`,
    'The demo card: nothing is charged.',
    'Or your own card or wallet on the pay page: $1.00 is charged, and all payments will be refunded.',
    ...(holdUntilText ? [`Please pay by ${holdUntilText}; the order is cancelled otherwise.`] : []),
  ].join('\n');
}

/** The two answers pay_order's elicitation offers. */
export const PAY_CHOICES = { demoCard: 'demo card', payPage: 'pay page' } as const;

/**
 * A confirmation code binds the exact details a user confirmed (every character of them): any change needs a new
 * confirmation. It is no secret and needs no storage, so it works on whichever instance the second call reaches.
 */
export function confirmationCode(parts: readonly string[]): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 12);
}

export const orderCode = (input: OrderInput): string =>
  confirmationCode(['order', input.email, input.name, input.size, input.font, input.thread, input.stitchText]);

export const payCode = (orderNumber: string, method: string): string => confirmationCode(['pay', orderNumber, method]);

/**
 * A parenthesis of the shared next step that names the payToken in each door's terms (src/orders/order-texts.ts):
 * "the field t of the REST pay body and of GraphQL payOrder's input; the argument payToken of MCP pay_order".
 */
const EVERY_DOORS_PAY_TOKEN = / \([^()]*\bREST\b[^()]*\)/u;

/**
 * An answer's `nextAction` in an MCP agent's terms: the payToken is pay_order's argument (the shared text named
 * REST's field and GraphQL's input too, nothing an MCP agent can use), and for a ready order, where and when it is
 * picked up is in get_event_info (the shared text says only "the pickup station"). REST's body is unchanged.
 */
export function inMcpTerms<T extends Record<string, unknown>>(body: T): T {
  if (typeof body.nextAction !== 'string') return body;
  let nextAction = body.nextAction.replace(EVERY_DOORS_PAY_TOKEN, " (pay_order's payToken argument)");
  if (body.status === 'ready') nextAction += ' Call get_event_info for where the pickup station is and its hours, and tell the user.';
  return nextAction === body.nextAction ? body : { ...body, nextAction };
}
