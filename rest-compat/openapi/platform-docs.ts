/**
 * The OpenAPI descriptions of document 3's operations (platform.ts, payments.ts) and of the evidence operations and
 * the processor webhook (notifications.ts), keyed as their routes are written.
 */
import { jsonAnswer, jsonBody, PLATFORM_HEADERS, platformErrors, RETRY_AFTER, SITE_AUTH, textAnswer, tokenizationErrors, type RouteDoc, type RouteDocs } from './types.ts';

const PLATFORM = 'Decision platform';
const TOKENIZATION = 'Tokenization';
const EVIDENCE = 'Claims and evidence';

/** The risk and merchant operations: basic auth, the two headers, the platform error body (document 3 §4, §7). */
const risk = (doc: Omit<RouteDoc, 'tags' | 'security' | 'parameters'>, invalidField: string, statuses = [400, 401, 404, 413, 415, 500]): RouteDoc => ({
  ...doc,
  tags: [PLATFORM],
  security: SITE_AUTH,
  parameters: PLATFORM_HEADERS,
  responses: { ...doc.responses, ...platformErrors(statuses, { 401: 'No valid API key, or x-vendor-siteid missing or not the site of the credentials.' }, invalidField) },
});

const tokenization = (operationId: string, summary: string, body: string, answer: string, description?: string, example?: unknown): RouteDoc => ({
  operationId,
  summary,
  ...(description ? { description } : {}),
  tags: [TOKENIZATION],
  security: SITE_AUTH,
  requestBody: jsonBody(body, example),
  responses: { '200': jsonAnswer('Done.', answer), ...tokenizationErrors([400, 401, 404, 413, 415, 500, 503]) },
});

const CARD = { cardNumber: '4242424242424242', expirationMonth: 12, expirationYear: 2030, cardHolderName: 'Ada Lovelace' };
const DECISION = { status: 'success', vendorDecision: 'APPROVE', reasonCodes: [], recommendations: [], correlationId: 'corr_…' };
const EVENT_ID = { schema: { type: 'string' }, description: 'The event id; sent again with the same body it replays its decision, with another body it is 400.' };

export const PLATFORM_DOCS: RouteDocs = {
  'POST /merchants': risk({
    operationId: 'createMerchant',
    summary: 'Create a merchant (a new site)',
    requestBody: jsonBody('MerchantInput', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Corner Shop' }),
    responses: {
      '200': jsonAnswer('The merchant; `apiKey` is shown only here.', 'Merchant', {
        defaultMerchantCategoryCode: '5411',
        id: 'site_…',
        merchantId: 'm-1',
        name: 'Corner Shop',
        apiKey: '…',
      }),
    },
  }, 'merchantId'),
  'POST /merchants/:id/api-key': risk(
    {
      operationId: 'replaceMerchantKey',
      summary: 'Replace a merchant\'s API key',
      description:
        'A lost or leaked key is replaced, never recovered: the answer holds a new key, shown only here, and the old one stops working at once. ' +
        'The merchant\'s owner or the merchant\'s own site may ask; no body. A creation whose answer was lost names the merchant\'s id in its 400 when sent again.',
      pathSchemas: { id: { schema: { type: 'string' }, description: 'The merchant\'s site id.' } },
      responses: { '200': jsonAnswer('The new key.', 'MerchantKey', { id: 'site_…', apiKey: '…' }) },
    },
    'api-version',
    [400, 401, 404, 500],
  ),
  'POST /merchants/:id/3ds-recommendation': risk({
    operationId: 'enrollThreeDs',
    summary: 'Enroll a merchant in 3DS recommendations',
    description: 'Answers PENDING at once; the request completes (or fails with a reason) about 5 seconds later.',
    pathSchemas: { id: { schema: { type: 'string' }, description: 'The merchant\'s site id.' } },
    requestBody: jsonBody('EnrollmentRequest', { offerings: { psd2: true, risk_3ds: true } }),
    responses: { '200': jsonAnswer('Accepted.', 'EnrollmentAccepted', { requestId: '3ds_…', status: 'PENDING' }) },
  }, 'offerings'),
  'GET /merchants/:id/3ds-recommendation/:requestId': risk(
    {
      operationId: 'getThreeDsEnrollment',
      summary: 'The state of a 3DS enrollment request',
      pathSchemas: { id: { schema: { type: 'string' }, description: 'The merchant\'s site id.' } },
      responses: { '200': jsonAnswer('The request now.', 'Enrollment') },
    },
    'api-version',
    [400, 401, 404, 500],
  ),
  'POST /v2/accounts/item-listing/:id': risk({
    operationId: 'decideItemListing',
    summary: 'A decision on a seller item listing',
    pathSchemas: { id: EVENT_ID },
    requestBody: jsonBody('AccountRequest', { accountId: 'seller-1', eventTime: 1764000000000, listedItems: [] }),
    responses: { '200': jsonAnswer('The decision.', 'Decision', DECISION) },
  }, 'eventTime'),
  'POST /v2/accounts/profile-access/:id': risk({
    operationId: 'decideProfileAccess',
    summary: 'A decision on a profile access attempt',
    pathSchemas: { id: EVENT_ID },
    requestBody: jsonBody('AccountRequest', { accountId: 'user-1', eventTime: 1764000000000, accountOwner: { email: 'verify@vendor.test' } }),
    responses: { '200': jsonAnswer('The decision, with MFA recommendations when verification is required.', 'Decision', DECISION) },
  }, 'accountId'),
  'POST /api/payments': {
    operationId: 'createPayment',
    summary: 'Create a payment',
    description: 'The same Idempotency-Key with the same body replays the first answer; with another body it is 400.',
    tags: ['Payments'],
    security: SITE_AUTH,
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }],
    requestBody: jsonBody('PaymentRequest', {
      orderId: 'o-1',
      amount: 1999,
      currency: 'USD',
      customer: { email: 'approve@vendor.test' },
      paymentMethod: { type: 'card', card: { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' } },
    }),
    responses: {
      '201': jsonAnswer('The payment (also when replayed for its Idempotency-Key).', 'Payment', {
        id: 'pay_…',
        orderId: 'o-1',
        amount: 1999,
        currency: 'USD',
        status: 'succeeded',
        decision: 'APPROVE',
        createdAt: '2026-11-22T15:00:00.000Z',
      }),
      ...platformErrors([400, 401, 404, 409, 413, 415, 429, 500, 502, 503], {
        502: 'The processor did not answer (payment_unknown); retry with the same Idempotency-Key: it reconciles and never charges twice.',
      }, 'amount'),
    },
  },
  'POST /v1/tokenization/tokenize': tokenization('tokenize', 'Tokenize a card', 'TokenizeRequest', 'Tokenized', 'A new token is single-use until it is upgraded.', CARD),
  'POST /v1/tokenization/detokenize': tokenization('detokenize', 'The full card data of a token or alias', 'TokenReference', 'FullCardData', undefined, { token: 'tok_…' }),
  'POST /v1/tokenization/upgrade': tokenization('upgradeToken', 'Upgrade a token to multi-use, optionally provisioning a network token', 'UpgradeRequest', 'UpgradeResult', undefined, {
    token: 'tok_…',
    networkToken: { provision: true, async: false },
  }),
  'POST /v1/account-updater/card/update': tokenization('updateCard', 'Update the stored card of every token of this number', 'CardData', 'MaskedCardData', undefined, CARD),
  'POST /v1/sandbox/wallet-confirmation': {
    operationId: 'sandboxWalletConfirmation',
    summary: 'A sandbox wallet confirmation for /api/payments `wallet`',
    tags: [TOKENIZATION],
    security: SITE_AUTH,
    responses: { '200': jsonAnswer('The confirmation token.', 'WalletConfirmation', { token: 'wct_…' }), ...tokenizationErrors([401, 500]) },
  },
  'POST /v2/claims/:claimId/evidence/file': {
    operationId: 'submitEvidenceFile',
    summary: 'Submit an evidence file for a claim',
    tags: [EVIDENCE],
    security: SITE_AUTH,
    requestBody: { required: true, content: { 'multipart/form-data': { schema: { $ref: '#/components/schemas/EvidenceFile' } } } },
    responses: { '200': jsonAnswer('Where the claim stands now.', 'EvidenceResult'), ...platformErrors([400, 401, 404, 409, 413, 415, 500]) },
  },
  'POST /v2/claims/:claimId/evidence/data-points': {
    operationId: 'submitEvidenceDataPoints',
    summary: 'Submit evidence data points for a claim',
    tags: [EVIDENCE],
    security: SITE_AUTH,
    requestBody: jsonBody('EvidenceDataPoints', { proofsOfDelivery: [{ trackingNumber: '1Z…', carrier: 'UPS' }] }),
    responses: { '200': jsonAnswer('Where the claim stands now.', 'EvidenceResult'), ...platformErrors([400, 401, 404, 409, 413, 415, 500]) },
  },
  'GET /webhooks/processor/:siteId/:accountId': {
    operationId: 'processorChallenge',
    summary: "Answer a payment processor's webhook verification challenge",
    description: 'Answers `PUBLIC_KEY|HEX` when the site is known, the account is that site\'s and `bt_challenge` is 20 to 32 lowercase hex characters; anything else is 401. Each client address may ask RATE_LIMIT_SUBJECT_WRITE times a window (the answer says whether an account exists); then 429.',
    tags: [EVIDENCE],
    parameters: [{ name: 'bt_challenge', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{20,32}$' } }],
    responses: {
      '200': textAnswer('The answer.', 'text/plain', 'public-key|3f0c…'),
      '401': textAnswer('Unauthorized.', 'text/plain', 'Unauthorized'),
      '429': { ...textAnswer('Too many challenges from this address; Retry-After says when to come back.', 'text/plain', 'Too Many Requests'), headers: RETRY_AFTER },
    },
  },
};
