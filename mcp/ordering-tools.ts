/**
 * The five tools of CONTRACT §9, one per step of document 1's flow. Each calls what the REST route calls — the
 * same rate limit group and subject (docs/edge.md#rate-limits-at-a-venue), the same input rules, the same service,
 * the same body (rest-compat/ordering.ts's orderBody and payResultBody) — and adds what REST cannot: it asks the
 * user itself before anything permanent (docs/agents.md#confirmation-by-elicitation).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ElicitResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../src/kernel/errors.ts';
import { emailSubject, enforceRateLimit, orderSubject, type RateGroup } from '../src/kernel/rate-limiter.ts';
import { openedOrCounted } from '../src/kernel/token-guesses.ts';
import { parseOrderInput, parsePayInput, type PayInput } from '../src/orders/order-input.ts';
import { viewOptions } from '../src/orders/options-view.ts';
import { orderBody, payResultBody } from '../rest-compat/ordering.ts';
import { DESCRIPTIONS, TITLES, orderCode, orderConfirmationText, PAY_CHOICES, payChoiceText, payCode, spellOut } from './agent-rules.ts';
import type { CallScope, ToolDeps } from './tool-deps.ts';
import { answer, guarded, orderLink, type Body } from './tool-results.ts';
import { advertised, NO_INPUT, ORDER_INPUT, ORDER_REF, PAY_INPUT, type RawArgs } from './tool-schemas.ts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How long a question may wait for the user: the hold an order gets is five minutes. */
const ASK_TIMEOUT_MS = 5 * 60_000;

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * A form question put to the user through the agent's client; no answer in time counts as cancelled. So does the
 * client cancelling the tool call (extra.signal): the question is withdrawn, and an answer after it is not heard.
 */
async function ask(extra: Extra, message: string, properties: Record<string, unknown>): Promise<ElicitResult> {
  const requestedSchema = { type: 'object', properties, required: Object.keys(properties) };
  try {
    return await extra.sendRequest({ method: 'elicitation/create', params: { message, requestedSchema } } as ServerRequest, ElicitResultSchema, { timeout: ASK_TIMEOUT_MS, signal: extra.signal });
  } catch {
    return { action: 'cancel' };
  }
}

/**
 * Checked right before anything permanent: a call the client cancelled (MCP 2025-11-25, cancellation) does not act,
 * whatever it was told meanwhile. The SDK sends no answer to it, so this one is never seen.
 */
async function stillWanted(extra: Extra, scope: CallScope): Promise<void> {
  // From here the call acts, unless a cancel was taken (on this instance or another): a cancel arriving during it no
  // longer ends the call unanswered (relay.ts, call-records.ts).
  if (extra.signal.aborted || (scope.acting && !(await scope.acting(extra.requestId)))) {
    throw new DomainError('bad_request', 'The call was cancelled: nothing was done.');
  }
}

function stringArg(args: RawArgs, name: string): string {
  const value = args[name];
  if (value === undefined || value === null) throw new DomainError('bad_request', `${name} is required.`, { field: name });
  if (typeof value !== 'string') throw new DomainError('bad_request', `${name} must be a string.`, { field: name });
  return value;
}

export function registerOrderingTools(server: McpServer, deps: ToolDeps, scope: CallScope): void {
  const { services, limiter, publicUrl, logger } = deps;
  const limit = (group: RateGroup, subject?: string) => enforceRateLimit(limiter, group, scope.clientAddress, subject);

  server.registerTool('get_sleeve_options', { title: TITLES.get_sleeve_options, description: DESCRIPTIONS.get_sleeve_options, inputSchema: advertised(NO_INPUT), annotations: READ_ONLY }, () =>
    guarded('get_sleeve_options', logger, async () => {
      // Counted by no limit, as GET /api/sleeve-options (docs/edge.md#options-reads).
      const set = services.options.cached() ?? (await services.options.current());
      const { version: _version, ...fields } = viewOptions(set, publicUrl);
      const body: Body = { ok: true, ...fields };
      const summary = `sizes: ${fields.sizes.join(', ')}\nfonts: ${fields.fonts.join(', ')}\nthreads: ${fields.threads.join(', ')}\ncharLimit: ${fields.charLimit}`;
      // Then the JSON, as every other tool's text ends (tool-results.ts): a host that hands the model only `content`
      // left it the names alone, without the threads' colours and the choices' descriptions it is to offer.
      return { ...answer(body), content: [{ type: 'text', text: `${summary}\n\nJSON: ${JSON.stringify(body)}` }] };
    }),
  );

  server.registerTool('create_order', { title: TITLES.create_order, description: DESCRIPTIONS.create_order(deps.holdSeconds), inputSchema: advertised(ORDER_INPUT), annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false } }, (args, extra) =>
    guarded('create_order', logger, async () => {
      const raw = args as RawArgs;
      // A first call without elicitation only reads (the options, and whether the email has an order) and answers
      // what to confirm: counted as a lookup, per address.
      const preview = !scope.canElicit && raw.confirmation == null;
      await (preview ? limit('lookup') : limit('create', emailSubject(raw.email)));
      const input = parseOrderInput(raw);
      // Except for an email that has an order: its duplicate answer issues a fresh payToken, which is the write a
      // create counts (per email), not a read anyone may repeat thousands of times a minute.
      if (preview && (await services.orders.holdsEmail(input.email))) await limit('create', emailSubject(raw.email));
      await services.orders.checkCreate(input); // never ask the user to confirm what would be refused
      const code = orderCode(input);
      if (scope.canElicit) {
        const reply = await ask(extra, orderConfirmationText(input, deps.holdSeconds), {
          confirm: { type: 'boolean', title: 'Place this order', description: 'Yes: every detail above, the stitch text letter by letter, is right.' },
        });
        if (reply.action !== 'accept' || reply.content?.confirm !== true) {
          return answer({
            confirmed: false,
            message: 'Nothing was ordered: the details were not confirmed.',
            nextAction: 'Ask the user what to change, then call create_order again.',
          });
        }
      } else if (raw.confirmation !== code) {
        return answer({
          confirmationRequired: true,
          confirmation: code,
          details: { size: input.size, font: input.font, thread: input.thread, stitchText: input.stitchText, name: input.name, email: input.email },
          stitchTextSpelled: spellOut(input.stitchText),
          message: orderConfirmationText(input, deps.holdSeconds),
          nextAction: `${raw.confirmation == null ? '' : STALE_CODE}Nothing is ordered yet. Ask the user to confirm every detail above, reading the stitch text back letter by letter. Only once they confirm, call create_order again with exactly the same arguments and confirmation "${code}".`,
        });
      }
      await stillWanted(extra, scope);
      const { order, payToken } = await services.orders.create(input);
      return answer(orderBody(services.orders.view(order, { payToken })), orderLink(order.orderNumber, payToken, scope.protocolVersion));
    }),
  );

  server.registerTool('pay_order', { title: TITLES.pay_order, description: DESCRIPTIONS.pay_order, inputSchema: advertised(PAY_INPUT), annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true } }, (args, extra) =>
    guarded('pay_order', logger, async () => {
      const raw = args as RawArgs;
      await limit('pay', orderSubject(raw.orderNumber, raw.payToken));
      // Every failure before the token opens the order counts against the address too (token-guesses.ts).
      return openedOrCounted(limiter, 'pay', scope.clientAddress, async () => {
        const orderNumber = stringArg(raw, 'orderNumber');
        const t = stringArg(raw, 'payToken');
        // Own card or wallet without the pay page's token: the user pays on the page, which makes the token and takes
        // the payment itself, so an agent never holds one (this was a 400 "needs the token", before the user was asked).
        const onPage = (raw.method === 'card' || raw.method === 'wallet') && (raw.token ?? '') === '';
        // No method (or null, as some clients send one left out): the first call, which offers both ways; never a payment.
        const undecided = raw.method == null;
        // On the page or undecided, `input` is never paid with as it stands: the user is asked, or answered, first.
        let input: PayInput = onPage || undecided ? { t, method: 'vendor_card' } : parsePayInput({ t, method: raw.method, token: raw.token });
        if (scope.canElicit || onPage || undecided || raw.confirmation !== payCode(orderNumber, input.method)) {
          const order = await services.orders.lookup(orderNumber, t);
          const view = services.orders.view(order, { presentedToken: t });
          // Only an order awaiting payment is asked about; paying any other answers alreadyPaid or its error, and
          // charges nothing. The pay page and the choices are not offered for one: its status is the answer.
          if (order.status !== 'awaiting payment' && (onPage || undecided)) return answer(orderBody(view));
          if (order.status === 'awaiting payment') {
            const holdUntilText = view.hold?.holdUntilText;
            if (!scope.canElicit) {
              if (onPage) return answer(payPage(orderBody(view)));
              // The pay page's token in hand: that payment, once the user confirms it (its code was never handed out,
              // so such a call only ever answered the choices again, and an agent following the schema looped).
              if (input.method !== 'vendor_card' && !undecided) return answer(tokenPayment(orderNumber, input.method, holdUntilText, raw.confirmation != null));
              return answer(payChoices(orderNumber, orderBody(view), holdUntilText, raw.confirmation != null));
            }
            const reply = await ask(extra, payChoiceText(orderNumber, holdUntilText), {
              choice: { type: 'string', title: 'How to pay', enum: [PAY_CHOICES.demoCard, PAY_CHOICES.payPage], enumNames: ['The demo card (nothing charged)', 'My own card or wallet on the pay page ($1.00, refunded)'] },
            });
            const choice = reply.action === 'accept' ? reply.content?.choice : undefined;
            if (choice === PAY_CHOICES.demoCard) input = { t, method: 'vendor_card' };
            else if (choice === PAY_CHOICES.payPage) {
              // A token from the pay page means the user is paying there already; without one, the page is the way.
              if (onPage || input.method === 'vendor_card' || !input.token) return answer(payPage(orderBody(view)));
            } else {
              return answer({
                paid: false,
                orderNumber,
                message: 'Nothing was paid: no way to pay was chosen.',
                nextAction: `Ask the user how they want to pay, offering both ways, then call pay_order again.${holdUntilText ? ` The order is held until ${holdUntilText}.` : ''}`,
              });
            }
          }
        }
        await stillWanted(extra, scope);
        const paid = await services.orders.pay(orderNumber, input);
        return answer(payResultBody(services.orders.viewPayment(paid)));
      });
    }),
  );

  server.registerTool('get_order', { title: TITLES.get_order, description: DESCRIPTIONS.get_order, inputSchema: advertised(ORDER_REF), annotations: READ_ONLY }, (args) =>
    guarded('get_order', logger, async () => {
      const raw = args as RawArgs;
      await limit('lookup', orderSubject(raw.orderNumber, raw.payToken));
      const { orderNumber, t, order } = await openedOrCounted(limiter, 'lookup', scope.clientAddress, async () => {
        const [orderNumber, t] = [stringArg(raw, 'orderNumber'), stringArg(raw, 'payToken')];
        return { orderNumber, t, order: await services.orders.lookup(orderNumber, t) };
      });
      return answer(orderBody(services.orders.view(order, { presentedToken: t })), orderLink(orderNumber, t, scope.protocolVersion));
    }),
  );

  server.registerTool('get_event_info', { title: TITLES.get_event_info, description: DESCRIPTIONS.get_event_info, inputSchema: advertised(NO_INPUT), annotations: READ_ONLY }, () =>
    guarded('get_event_info', logger, async () => {
      const text = await services.eventInfo.text();
      return { content: [{ type: 'text', text }], structuredContent: { ok: true, text } };
    }),
  );
}

/**
 * Said first when a call carried a confirmation that is not the code of its details: the agent may believe the user
 * confirmed, while something changed since (the stitch text, the method) or the code is another order's.
 */
const STALE_CODE = 'The confirmation sent is not the code of these details: something changed since the user confirmed, or it belongs to other details. ';

/** Without elicitation: the two ways, for the agent to offer; the demo card with the code that pays that way. */
function payChoices(orderNumber: string, order: Body, holdUntilText: string | undefined, staleCode: boolean): Body {
  const vendor = payCode(orderNumber, 'vendor_card');
  return {
    confirmationRequired: true,
    orderNumber,
    payUrl: order.payUrl,
    holdUntilText,
    choices: [
      { method: 'vendor_card', label: 'The demo card: nothing is charged', confirmation: vendor },
      // No code for these: the page takes the payment, not pay_order.
      { method: 'card', label: 'Own card on the pay page ($1.00, refunded)', payUrl: order.payUrl },
      { method: 'wallet', label: 'Own wallet on the pay page ($1.00, refunded)', payUrl: order.payUrl },
    ],
    message: payChoiceText(orderNumber, holdUntilText),
    nextAction: `${staleCode ? STALE_CODE : ''}Nothing is paid yet. Ask the user how to pay and offer both ways; never choose for them. If they choose the demo card, call pay_order with method vendor_card and confirmation "${vendor}". If they choose their own card or wallet, open payUrl for them or give it to them: the page takes the payment.`,
  };
}

/** Without elicitation, a card or wallet token from the pay page (`method`: card or wallet): its charge, and the code that makes it once the user confirms. */
function tokenPayment(orderNumber: string, method: string, holdUntilText: string | undefined, staleCode: boolean): Body {
  const code = payCode(orderNumber, method);
  return {
    confirmationRequired: true,
    orderNumber,
    method,
    confirmation: code,
    holdUntilText,
    message: `Pay for sleeve order ${orderNumber} with your own ${method}: $1.00 is charged, and all payments will be refunded.${holdUntilText ? ` Please pay by ${holdUntilText}.` : ''}`,
    nextAction: `${staleCode ? STALE_CODE : ''}Nothing is paid yet. Ask the user to confirm paying $1.00 (refunded) with their own ${method}; only once they do, call pay_order again with the same arguments and confirmation "${code}".`,
  };
}

/** The user chose the pay page: the order as a lookup shows it, with what to do about the page. */
function payPage(order: Body): Body {
  return {
    ...order,
    message: 'You chose to pay with your own card or wallet on the pay page: $1.00 is charged, and all payments will be refunded.',
    nextAction: 'Open payUrl for the user if you can, otherwise give them payUrl. Then call get_order to see the status.',
  };
}
