/**
 * Document 1 §2's resources as JSON Schema, for /openapi.json. The bounds come from the domain's own constants (the
 * rules that parse a request), so the document and the parsing name one number; the 400/422 split itself stays in
 * src/orders/order-input.ts (docs/ordering.md#400-or-422), which a schema cannot express.
 */
import { EMAIL_MAX_LENGTH } from '../../src/kernel/email.ts';
import { STITCH_TEXT_PATTERN } from '../../src/orders/order-input.ts';
import { HOLD_EXPIRED_REASON, ORDER_STATUSES, PAY_BUTTON_LABEL, PAY_LABEL, PAY_METHODS } from '../../src/orders/order.ts';
import { NAME_MAX_LENGTH } from '../../src/orders/person-name.ts';
import { ERROR_CODES } from '../../src/kernel/errors.ts';
import type { Schema } from './types.ts';

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });

/** A choice with its preview image; threads add their colour (`#rrggbb`), fonts their CSS font family. */
const choice: Schema = {
  type: 'object',
  required: ['value', 'image'],
  additionalProperties: false,
  properties: {
    value: str(),
    image: { type: 'string', format: 'uri', description: 'A preview image (SVG) of this choice.' },
    color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', description: 'Threads only: the thread colour.' },
    family: { type: 'string', description: 'Fonts only: the CSS font-family list the previews draw with.' },
  },
};

const status: Schema = { type: 'string', enum: [...ORDER_STATUSES] };

/** The hold fields: present only while the order awaits payment (document 1 §2). */
const holdFields: Record<string, Schema> = {
  holdUntil: { type: 'string', format: 'date-time', description: 'The end of the hold.' },
  holdUntilText: str('The deadline in New York time, to tell the user as it is.'),
  secondsLeft: { type: 'integer', minimum: 0 },
  payUrl: { type: 'string', format: 'uri', description: 'The hosted page for a card or wallet payment.' },
  payToken: str('Passed as `t` to the status lookup and to pay; keep it from the first answer.'),
  payLabel: { type: 'string', const: PAY_LABEL },
  payButtonLabel: { type: 'string', const: PAY_BUTTON_LABEL },
};

const reason: Schema = { type: 'string', const: HOLD_EXPIRED_REASON };

export const ORDERING_SCHEMAS: Record<string, Schema> = {
  SleeveOptions: {
    type: 'object',
    description: 'What can be ordered now; read it before every order, never assume it.',
    required: ['ok', 'sizes', 'fonts', 'threads', 'charLimit', 'sizeChoices', 'fontChoices', 'threadChoices'],
    additionalProperties: false,
    properties: {
      ok: { type: 'boolean', const: true },
      sizes: { type: 'array', items: str() },
      fonts: { type: 'array', items: str() },
      threads: { type: 'array', items: str() },
      charLimit: { type: 'integer', minimum: 1, description: 'The maximum length of stitchText.' },
      sizeChoices: { type: 'array', items: choice },
      fontChoices: { type: 'array', items: choice },
      threadChoices: { type: 'array', items: choice },
    },
  },
  OrderInput: {
    type: 'object',
    description:
      'All fields required. Confirm every one with the user first and spell stitchText back: embroidery is permanent. ' +
      'A missing field or a wrong JSON type is 400; a value that breaks a rule is 422.',
    required: ['email', 'name', 'size', 'font', 'thread', 'stitchText'],
    properties: {
      email: { type: 'string', maxLength: EMAIL_MAX_LENGTH, description: 'One ordinary address; one order per email.' },
      name: {
        type: 'string',
        maxLength: NAME_MAX_LENGTH,
        description: 'First and last name, checked at pickup: letters, spaces, apostrophes, hyphens or full stops; at most 5 words; no links.',
      },
      size: str('One of `sizes` returned now by the options.'),
      font: str('One of `fonts` returned now.'),
      thread: str('One of `threads` returned now.'),
      stitchText: { type: 'string', pattern: STITCH_TEXT_PATTERN.source, description: 'At most `charLimit` characters.' },
    },
  },
  OrderChoice: {
    type: 'object',
    required: ['size', 'font', 'thread', 'stitchText', 'status'],
    additionalProperties: false,
    properties: { size: str(), font: str(), thread: str(), stitchText: str(), status },
  },
  Order: {
    type: 'object',
    required: ['ok', 'orderNumber', 'status', 'order', 'message', 'nextAction'],
    additionalProperties: false,
    properties: {
      ok: { type: 'boolean', const: true },
      duplicate: { type: 'boolean', const: false },
      orderNumber: { type: 'string', pattern: '^[0-9]+$' },
      status,
      ...holdFields,
      reason,
      order: { $ref: '#/components/schemas/OrderChoice' },
      previewImage: { type: 'string', format: 'uri', description: 'A preview image of the ordered sleeve.' },
      message: str('Relay to the user.'),
      nextAction: str('What to do next; follow it.'),
    },
  },
  PayInput: {
    type: 'object',
    required: ['t', 'method'],
    properties: {
      t: str('The payToken that creating the order answered (or a duplicate create, while the order is held).'),
      method: {
        type: 'string',
        enum: [...PAY_METHODS],
        description: '`vendor_card`: the demo card, no token, only when the user chose it. `card` and `wallet`: the token that only the payUrl page creates.',
      },
      token: str('Only for `card` and `wallet`; omitted for `vendor_card`.'),
    },
  },
  PayResult: {
    type: 'object',
    required: ['ok', 'orderNumber', 'status', 'alreadyPaid', 'message', 'nextAction'],
    additionalProperties: false,
    properties: {
      ok: { type: 'boolean', const: true },
      orderNumber: { type: 'string', pattern: '^[0-9]+$' },
      status,
      alreadyPaid: { type: 'boolean', description: 'True when an earlier attempt already paid; never pay again.' },
      message: str('Relay to the user.'),
      nextAction: str('Follow it.'),
    },
  },
  Error: {
    type: 'object',
    description: "Document 1's Error body: relay `error`; retry only when `retryable` is true.",
    required: ['ok', 'code', 'error', 'retryable'],
    additionalProperties: false,
    properties: {
      ok: { type: 'boolean', const: false },
      code: { type: 'string', enum: [...ERROR_CODES] },
      error: str('Relay to the user.'),
      retryable: { type: 'boolean' },
      field: str('The first failing input field (400 and 422).'),
      reason,
      duplicate: { type: 'boolean', const: true },
      orderNumber: { type: 'string', pattern: '^[0-9]+$', description: 'On `duplicate` while the existing order is held.' },
      status,
      ...holdFields,
      previewImage: { type: 'string', format: 'uri', description: 'On `duplicate` while the existing order is held.' },
      message: str('On `duplicate` while the existing order is held.'),
      nextAction: str('On `duplicate` while the existing order is held.'),
    },
  },
  PayPageTokenInput: {
    type: 'object',
    description: 'The pay page: the payToken as `t` (or `payToken`) and, for a card token, the card fields.',
    properties: {
      t: str('The payToken.'),
      payToken: str('The payToken, if `t` is not sent.'),
      cardNumber: str(),
      expirationMonth: { type: 'integer' },
      expirationYear: { type: 'integer' },
      cardHolderName: str(),
      cvc: str(),
    },
  },
};

export const SAMPLE_ORDER_INPUT = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  size: '13-inch',
  font: 'Block',
  thread: 'Gold',
  stitchText: 'ADA 1815',
};

export const SAMPLE_ORDER = {
  ok: true,
  duplicate: false,
  orderNumber: '1001',
  status: 'awaiting payment',
  holdUntil: '2026-11-22T15:05:00.000Z',
  holdUntilText: '10:05 AM ET',
  secondsLeft: 300,
  payUrl: 'http://localhost:4000/pay/1001?t=q3Vx9Lk2-ZbT7mWn0aRfYc4pHs8uJd1eGi5oNtKwXyA',
  payToken: 'q3Vx9Lk2-ZbT7mWn0aRfYc4pHs8uJd1eGi5oNtKwXyA',
  payLabel: PAY_LABEL,
  payButtonLabel: PAY_BUTTON_LABEL,
  order: { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA 1815', status: 'awaiting payment' },
  message: 'Order 1001 is reserved until 10:05 AM ET.',
  nextAction: 'Tell the user the deadline and ask how they want to pay.',
};
