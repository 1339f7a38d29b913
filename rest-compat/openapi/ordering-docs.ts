/**
 * The OpenAPI descriptions of document 1's paths (ordering.ts) and of the pay page's token paths (payments.ts),
 * keyed as their routes are written. Agents read these: the rules document 1 states for client agents are repeated
 * in the summaries and descriptions.
 */
import { SAMPLE_ORDER, SAMPLE_ORDER_INPUT } from './ordering-schemas.ts';
import { jsonAnswer, jsonBody, orderingErrors, textAnswer, type RouteDocs } from './types.ts';

/** What 404 and 409 mean where the payToken pays or makes a pay page token (the 409 example read `duplicate`). */
const PAY_PAGE_NOTES = {
  404: 'not_found: no such order, or a missing or wrong payToken.',
  409: 'cancelled: the order was cancelled; `reason` is present when the hold ran out.',
};

const ORDER_NUMBER = { schema: { type: 'string', pattern: '^[0-9]+$' }, description: 'The order number (digits).', example: '1001' };

export const ORDERING_DOCS: RouteDocs = {
  'GET /api/sleeve-options': {
    operationId: 'getSleeveOptions',
    summary: 'What can be ordered now',
    description: 'Sizes, fonts, threads and the stitch text limit change during the event: read them before every order.',
    tags: ['Ordering'],
    responses: {
      '200': jsonAnswer('The options offered now.', 'SleeveOptions', {
        ok: true,
        sizes: ['13-inch', '14-inch'],
        fonts: ['Block', 'Script'],
        threads: ['Gold', 'Navy'],
        charLimit: 20,
        sizeChoices: [{ value: '13-inch', image: 'http://localhost:4000/images/options/size/13-inch.svg' }],
        fontChoices: [{ value: 'Block', image: 'http://localhost:4000/images/options/font/Block.svg' }],
        threadChoices: [{ value: 'Gold', image: 'http://localhost:4000/images/options/thread/Gold.svg', color: '#d4af37' }],
      }),
      ...orderingErrors([429, 500, 503]),
    },
  },
  'POST /api/orders': {
    operationId: 'createOrder',
    summary: 'Create an order (held unpaid for 5 minutes)',
    description:
      'Before creating, confirm size, font, thread, stitchText, name and email with the user and spell stitchText back ' +
      '(embroidery is permanent); choose an option for the user only if asked. Relay `message`, follow `nextAction`, and ' +
      'tell the user the hold deadline (`holdUntilText`). One order per email.',
    tags: ['Ordering'],
    requestBody: jsonBody('OrderInput', SAMPLE_ORDER_INPUT),
    responses: {
      '201': jsonAnswer('The order, awaiting payment, with its payToken and hold fields.', 'Order', SAMPLE_ORDER),
      ...orderingErrors([400, 409, 413, 415, 422, 429, 500, 503], {
        409: 'duplicate: an order already exists for this email; while it is held, its hold fields come along.',
      }),
    },
  },
  'POST /api/orders/:orderNumber/pay': {
    operationId: 'payOrder',
    summary: 'Pay an order',
    description:
      'Ask the user how to pay and offer both ways; never choose for the user. `vendor_card` is the demo card (nothing is ' +
      'charged, no token). `card` and `wallet` need the token only the `payUrl` page creates: open payUrl or give it to ' +
      'the user. Paying again is safe: an order already paid answers `alreadyPaid: true` and charges nothing. The ' +
      'payToken goes in the body as `t`.',
    tags: ['Ordering'],
    pathSchemas: { orderNumber: ORDER_NUMBER },
    requestBody: jsonBody('PayInput', { t: 'q3Vx9Lk2-ZbT7mWn0aRfYc4pHs8uJd1eGi5oNtKwXyA', method: 'vendor_card' }),
    responses: {
      '200': jsonAnswer('The payment result.', 'PayResult', {
        ok: true,
        orderNumber: '1001',
        status: 'received',
        alreadyPaid: false,
        message: 'Order 1001 is paid.',
        nextAction: 'Tell the user the order is paid; do not pay again.',
      }),
      ...orderingErrors([400, 402, 404, 409, 413, 415, 429, 500, 502, 503], {
        ...PAY_PAGE_NOTES,
        502: 'payment_error or payment_unknown: the processor failed or did not answer; retryable.',
      }),
    },
  },
  'GET /api/orders/:orderNumber': {
    operationId: 'getOrder',
    summary: 'Look an order up',
    description: 'A missing or wrong payToken (`t`) answers 404, like an order that does not exist.',
    tags: ['Ordering'],
    pathSchemas: { orderNumber: ORDER_NUMBER },
    // A parameter, as document 1 §4 lists it, not a security scheme: generators make a scheme a client-wide
    // credential, and tool converters leave it out of a tool's arguments, while each order has its own token.
    parameters: [{ name: 't', in: 'query', required: true, description: 'The payToken that creating the order answered.', schema: { type: 'string' } }],
    responses: {
      '200': jsonAnswer('The order now.', 'Order', { ...SAMPLE_ORDER, secondsLeft: 240 }),
      ...orderingErrors([404, 429, 500, 503], { 404: 'not_found: no such order, or a missing or wrong payToken.' }),
    },
  },
  'GET /llms-full.txt': {
    operationId: 'getEventInfo',
    summary: 'Event information',
    description: 'Agenda, speakers, venue, food and swag, as plain text.',
    tags: ['Ordering'],
    responses: { '200': textAnswer('The event information.', 'text/plain', 'Agenda\n09:00 Doors open\n…') },
  },
  'POST /api/orders/:orderNumber/card-token': {
    operationId: 'createPayPageCardToken',
    summary: 'Tokenize a card for one held order (the pay page)',
    description: 'Authorized by the order\'s payToken in the body (`t`); the token is single-use and bound to this order (docs/platform.md#pay-page-tokens). A card whose expiry month has passed is 422 `validation_failed`, field `expirationYear`.',
    tags: ['Pay page'],
    pathSchemas: { orderNumber: ORDER_NUMBER },
    requestBody: jsonBody('PayPageTokenInput', {
      t: 'q3Vx9Lk2-ZbT7mWn0aRfYc4pHs8uJd1eGi5oNtKwXyA',
      cardNumber: '4242424242424242',
      expirationMonth: 12,
      expirationYear: 2030,
      cardHolderName: 'Ada Lovelace',
    }),
    responses: {
      '200': jsonAnswer('The card token and the masked card.', 'Tokenized'),
      ...orderingErrors([400, 404, 409, 413, 415, 422, 429, 500, 503], PAY_PAGE_NOTES),
    },
  },
  'POST /api/orders/:orderNumber/wallet-token': {
    operationId: 'createPayPageWalletToken',
    summary: 'A sandbox wallet confirmation for one held order (the pay page)',
    tags: ['Pay page'],
    pathSchemas: { orderNumber: ORDER_NUMBER },
    requestBody: jsonBody('PayPageTokenInput', { t: 'q3Vx9Lk2-ZbT7mWn0aRfYc4pHs8uJd1eGi5oNtKwXyA' }),
    responses: {
      '200': jsonAnswer('The wallet confirmation token.', 'WalletConfirmation', { token: 'wct_…' }),
      ...orderingErrors([400, 404, 409, 413, 415, 429, 500, 503], PAY_PAGE_NOTES),
    },
  },
};
