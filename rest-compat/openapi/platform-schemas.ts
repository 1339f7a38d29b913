/**
 * Document 3's resources (and docs/platform.md's answers to what it leaves "not shown") as JSON Schema, for
 * /openapi.json: the two error bodies, merchants, decisions, 3DS enrollment, payments, tokenization, evidence, and the
 * operator's health bodies. Bounds come from the domain's constants, as the parsing uses them.
 */
import { CARD_BOUNDS } from '../../src/payments/card-data.ts';
import { DATA_POINT_GROUPS } from '../../src/notifications/bodies.ts';
import { MERCHANT_ID_MAX, MERCHANT_IP_MAX, MERCHANT_NAME_MAX } from '../../src/risk/merchant-rules.ts';
import type { Schema } from './types.ts';

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const object = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  ...(required.length > 0 ? { required } : {}),
  properties,
  ...extra,
});
const closed = (properties: Record<string, Schema>, required: string[] = []): Schema => object(properties, required, { additionalProperties: false });

const month = int({ minimum: CARD_BOUNDS.month[0], maximum: CARD_BOUNDS.month[1] });
const year = int({ minimum: CARD_BOUNDS.year[0], maximum: CARD_BOUNDS.year[1] });
const cardNumber = str({ minLength: CARD_BOUNDS.numberLength[0], maxLength: CARD_BOUNDS.numberLength[1] });
const holder = str({ minLength: CARD_BOUNDS.holderLength[0], maxLength: CARD_BOUNDS.holderLength[1] });
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const merchantAccountCreation: Schema = {
  type: ['object', 'null'],
  properties: { ip: { type: ['string', 'null'], maxLength: MERCHANT_IP_MAX }, timestamp: { type: ['number', 'null'] } },
};
const decision = str({ enum: ['APPROVE', 'DECLINE', 'VERIFICATION_REQUIRED', 'NOT_REVIEWED'] });
const fieldErrors: Schema = { type: 'array', items: closed({ field: str(), message: str() }, ['field', 'message']) };
const cardInfo = closed(
  { bin: str({ minLength: 6, maxLength: 8 }), lastFourDigits: str({ minLength: 4, maxLength: 4 }), cardBrand: str(), expirationMonth: month, expirationYear: year },
  ['bin', 'lastFourDigits', 'cardBrand', 'expirationMonth', 'expirationYear'],
);
const tokenReference = {
  token: str(),
  tokenAlias: closed({ key: str(), value: str() }, ['key', 'value']),
};

export const PLATFORM_SCHEMAS: Record<string, Schema> = {
  PlatformError: {
    ...closed({ status: str({ const: 'error' }), message: str(), errors: fieldErrors }, ['status', 'message']),
    description: 'Risk, merchant, payment and evidence errors; a 400 adds `errors`, naming every failing field.',
  },
  TokenizationError: { ...closed({ message: str() }, ['message']), description: "Document 3's tokenization error body." },
  MerchantInput: object(
    {
      defaultMerchantCategoryCode: str({ pattern: '^[0-9]{4}$', maxLength: 4 }),
      merchantAccountCreation,
      merchantId: str({ maxLength: MERCHANT_ID_MAX }),
      name: str({ maxLength: MERCHANT_NAME_MAX, pattern: '^[A-Za-z0-9 ._&,^-]+$' }),
    },
    ['defaultMerchantCategoryCode', 'merchantId', 'name'],
  ),
  Merchant: {
    ...closed(
      { defaultMerchantCategoryCode: str(), id: str(), merchantAccountCreation, merchantId: str(), name: str(), apiKey: str() },
      ['defaultMerchantCategoryCode', 'id', 'merchantId', 'name', 'apiKey'],
    ),
    description: '`id` is the new site id; `apiKey`, the new site\'s key, is shown only here (docs/platform.md#credentials).',
  },
  MerchantKey: {
    ...closed({ id: str(), apiKey: str() }, ['id', 'apiKey']),
    description: 'The merchant\'s site id and its new key, shown only here; the old key no longer works (docs/platform.md#credentials).',
  },
  EnrollmentRequest: object(
    {
      offerings: object({
        jp_regulation: object({ acquirer_settings: { type: 'array', items: object({ acquirer: str(), scenario: str() }) }, enabled: { type: 'boolean' } }),
        policy_3ds: { type: 'boolean' },
        psd2: { type: 'boolean' },
        risk_3ds: { type: 'boolean' },
      }),
    },
    ['offerings'],
  ),
  EnrollmentAccepted: closed({ requestId: str(), status: str({ enum: ['PENDING', 'COMPLETED', 'FAILED'] }) }, ['requestId', 'status']),
  Enrollment: closed(
    {
      requestId: str(),
      merchantId: str({ description: "The merchant's site id (the path's {id}), not the merchantId sent at creation." }),
      status: str({ enum: ['PENDING', 'COMPLETED', 'FAILED'] }),
      reason: str(),
      offerings: { type: 'object' },
      createdAt: str({ format: 'date-time' }),
      completedAt: str({ format: 'date-time' }),
    },
    ['requestId', 'merchantId', 'status', 'offerings', 'createdAt'],
  ),
  AccountRequest: {
    ...object({ accountId: str(), eventTime: int({ minimum: 1e12, maximum: 9_999_999_999_999 }) }, ['accountId', 'eventTime']),
    description:
      "Document 3's item-listing or profile-access body. Every member document 3 types is checked at any depth (400 naming it); an item's basicItemData.price, which it leaves untyped, must be a number or a numeric string, since the high-value rule multiplies it by the quantity (a price it cannot read would pass that rule unjudged). Every other field is kept as sent.",
  },
  Decision: closed(
    { status: str({ const: 'success' }), vendorDecision: decision, reasonCodes: { type: 'array', items: str() }, recommendations: { type: 'array', items: str() }, correlationId: str() },
    ['status', 'vendorDecision', 'reasonCodes', 'recommendations', 'correlationId'],
  ),
  PaymentRequest: {
    ...object(
      {
        orderId: str({ minLength: 1, maxLength: 200 }),
        amount: int({ minimum: 1, description: "The currency's minor units: cents for USD, yen for JPY (which has none smaller)." }),
        currency: str({ description: 'An ISO 4217 currency code, any case, e.g. USD.' }),
        captureMethod: str(),
        channel: str(),
        connectionInformation: object({ customerIP: str() }),
        browserInfo: object({ userAgent: str() }),
        cartItems: { type: 'array', items: object({ name: str(), price: int({ description: 'Per item, in the minor units of `currency`, as `amount`.' }), quantity: int(), type: str() }) },
        shipping: { type: 'object' },
        billing: { type: 'object' },
        customer: object({ email: str(), firstName: str(), lastName: str() }),
        accountInfo: { type: 'object' },
        tax: { type: 'object' },
        paymentMethod: object(
          {
            type: str({ enum: ['card', 'wallet'] }),
            token: str({ description: 'A vault token (card) or a wallet confirmation (wallet), instead of `card`.' }),
            card: object({ number: str(), expirationMonth: int(), expirationYear: int(), holderName: str(), cvc: str() }),
          },
          ['type'],
        ),
        discounts: { type: 'array', items: object({ code: str(), amount: int({ description: 'In the minor units of `currency`, as the payment\'s `amount`.' }) }) },
      },
      ['orderId', 'amount', 'currency', 'paymentMethod'],
    ),
  },
  Payment: closed(
    {
      id: str(),
      orderId: str(),
      amount: int(),
      currency: str(),
      status: str({ enum: ['succeeded', 'declined', 'failed', 'pending'] }),
      decision,
      createdAt: str({ format: 'date-time' }),
    },
    ['id', 'orderId', 'amount', 'currency', 'status', 'decision', 'createdAt'],
  ),
  CardData: closed({ cardNumber, expirationMonth: month, expirationYear: year, cardHolderName: holder }, ['cardNumber', 'expirationMonth', 'expirationYear', 'cardHolderName']),
  TokenizeRequest: object(
    { cardNumber, expirationMonth: month, expirationYear: year, cardHolderName: holder, cvc: str(), tokenAliases: stringMap, extra: stringMap, customerId: { type: 'object' } },
    ['cardNumber', 'expirationMonth', 'expirationYear', 'cardHolderName'],
  ),
  Tokenized: closed({ token: str(), cardInfo }, ['token', 'cardInfo']),
  TokenReference: { ...object(tokenReference), description: '`token`, or `tokenAlias` {key, value}.' },
  FullCardData: closed(
    { cardNumber, extra: stringMap, tokenAliases: stringMap, customerId: { type: 'object' }, expirationMonth: month, expirationYear: year, cardHolderName: holder, cvc: { type: 'object' } },
    ['cardNumber', 'expirationMonth', 'expirationYear', 'cardHolderName'],
  ),
  MaskedCardData: {
    ...closed({ cardNumber: str({ description: 'Masked: the BIN and the last four digits.' }), expirationMonth: month, expirationYear: year, cardHolderName: holder }, ['cardNumber', 'expirationMonth', 'expirationYear', 'cardHolderName']),
  },
  UpgradeRequest: object({ ...tokenReference, networkToken: object({ provision: { type: 'boolean' }, async: { type: 'boolean', default: false } }, ['provision']) }),
  UpgradeResult: closed(
    {
      token: str(),
      networkTokenStatus: closed({ created: { type: 'boolean' }, reason: closed({ code: {}, message: str() }, ['code', 'message']) }, ['created']),
      cardInfo,
    },
    ['token'],
  ),
  WalletConfirmation: closed({ token: str() }, ['token']),
  EvidenceFile: object({ evidenceType: str({ example: 'INVOICE' }), file: str({ format: 'binary', description: 'pdf, png, jpeg or text/plain.' }) }, ['evidenceType', 'file']),
  EvidenceDataPoints: {
    type: 'object',
    description: "Keyed by document 2's data point group names, each an array of objects.",
    minProperties: 1,
    additionalProperties: false,
    properties: Object.fromEntries(Object.keys(DATA_POINT_GROUPS).map((group) => [group, { type: 'array', minItems: 1, items: { type: 'object' } }])),
  },
  EvidenceResult: closed(
    {
      status: str({ const: 'success' }),
      claimId: int(),
      claimStatus: str({ enum: ['OPEN', 'EVIDENCE_SUBMITTED', 'EXPIRED'] }),
      requestedEvidenceTypes: { type: 'array', items: str() },
      satisfiedEvidenceTypes: { type: 'array', items: str() },
      missingEvidenceTypes: { type: 'array', items: str() },
    },
    ['status', 'claimId', 'claimStatus', 'requestedEvidenceTypes', 'satisfiedEvidenceTypes', 'missingEvidenceTypes'],
  ),
  Health: closed({ status: str({ const: 'ok' }) }, ['status']),
  Readiness: closed({ status: str({ enum: ['ready', 'unavailable'] }), checks: stringMap }, ['status', 'checks']),
};
