/**
 * The tools' input schemas (docs/agents.md#input-schemas). Each is written once in zod from the constants the domain
 * rules themselves use (EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, STITCH_TEXT_PATTERN, PAY_METHODS, ORDER_STATUSES), so a
 * limit changed there changes here; test/agents/tool-schemas.test.ts checks both agree on inputs at each edge.
 *
 * What a tool publishes is that strict schema, as JSON Schema. What the SDK parses with is `advertised(…)`: an
 * object that lets any JSON through, carrying the strict JSON Schema as its metadata. The checking is then done by
 * the same rules the REST door runs (src/orders/order-input.ts and the services), so a bad input gets document 1's
 * Error body — `bad_request` for a missing or mistyped field, `validation_failed` for a broken rule — and not the
 * SDK's own text.
 */
import * as z from 'zod';
import { EMAIL_MAX_LENGTH } from '../src/kernel/email.ts';
import { STITCH_TEXT_PATTERN } from '../src/orders/order-input.ts';
import { ORDER_STATUSES, PAY_METHODS } from '../src/orders/order.ts';
import { NAME_MAX_LENGTH, NAME_MAX_WORDS } from '../src/orders/person-name.ts';

const orderNumber = z.string().regex(/^[0-9]+$/u).describe('The order number (digits), from create_order.');
const payToken = z.string().min(1).describe('The payToken from create_order. Keep it: it is the only key to the order.');
const confirmation = z
  .string()
  .optional()
  .describe(
    'Only for clients without elicitation: the confirmation code of the previous answer, sent once the user has confirmed exactly those details. Omit it on the first call.',
  );

export const ORDER_INPUT = z.object({
  email: z.string().min(1).max(EMAIL_MAX_LENGTH).describe('The user\'s email: one ordinary address, no spaces, quotes, commas or brackets. One order per email.'),
  name: z
    .string()
    .min(1)
    .max(NAME_MAX_LENGTH)
    .describe(`First and last name, checked at pickup: letters, spaces, apostrophes, hyphens or full stops; at most ${NAME_MAX_WORDS} words; no links.`),
  size: z.string().min(1).describe('One of `sizes` as get_sleeve_options returns them now.'),
  font: z.string().min(1).describe('One of `fonts` as get_sleeve_options returns them now.'),
  thread: z.string().min(1).describe('One of `threads` as get_sleeve_options returns them now.'),
  stitchText: z
    .string()
    .min(1)
    .regex(STITCH_TEXT_PATTERN)
    .describe('The text embroidered, at most `charLimit` characters (get_sleeve_options): the letters A to Z without accents (É is refused), digits, spaces, ".", "-", "&"; starts with a letter or digit. Permanent: spell it back to the user.'),
  confirmation,
});

export const PAY_INPUT = z.object({
  orderNumber,
  payToken,
  method: z
    .enum(PAY_METHODS)
    .optional()
    .describe(
      'How the USER chose to pay: vendor_card (the demo card, nothing charged, no token) or card / wallet (only with the token the payUrl page creates). Never choose for the user: omit it on the first call unless the user already said how they want to pay, and the answer offers both ways.',
    ),
  token: z.string().min(1).optional().describe('Only for card and wallet: the token the payUrl page created.'),
  confirmation,
});

export const ORDER_REF = z.object({ orderNumber, payToken });

export const NO_INPUT = z.object({});

export const LIST_ORDERS_INPUT = z.object({
  status: z.array(z.enum(ORDER_STATUSES)).optional().describe('Only orders in these statuses; all when omitted.'),
  first: z.number().int().min(0).max(200).optional().describe('Page size: 50 by default, 200 at most.'),
  after: z.string().optional().describe('endCursor of the previous page.'),
});

/** What advance_order moves an order to. */
export const ADVANCE_STATUSES = ['in progress', 'ready'] as const;

export const ADVANCE_INPUT = z.object({
  orderNumber,
  status: z.enum(ADVANCE_STATUSES).describe('Forward only: received → in progress → ready (a step may be skipped).'),
});

export const COLLECT_INPUT = z.object({
  orderNumber,
  collectorName: z.string().min(1).describe("The collector's first and last name; they must match the order's."),
});

export const CANCEL_INPUT = z.object({
  orderNumber,
  reason: z.string().min(1).max(300).describe('Why (1 to 300 characters). A paid order is refunded.'),
});

const made = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * What the SDK is given: any JSON object passes its parse; tools/list shows `strict` as JSON Schema. Made once per
 * schema: every request builds its tools afresh (mcp/mcp-door.ts), and `meta` registers in zod's global registry.
 */
export function advertised(strict: z.ZodObject): z.ZodObject {
  let schema = made.get(strict);
  if (!schema) {
    const { $schema: _schema, ...jsonSchema } = z.toJSONSchema(strict, { io: 'input' });
    schema = z.looseObject({}).meta(jsonSchema);
    made.set(strict, schema);
  }
  return schema;
}

/** A tool's raw arguments, as an object of unknown values (the SDK hands over `{}` when there are none). */
export type RawArgs = Record<string, unknown>;
