/**
 * A JSON schema for each notification body of document 2 §2, field names, types and required fields as the
 * document lists them (plus the fixed `type` values and the limits of §8). The test receiver validates every body
 * the suite produces against these, so a body that drifts from the document fails a test. Formats are written as
 * patterns, so any JSON schema validator checks them without a formats plugin.
 */
import type { NotificationPath } from './notification-paths.ts';
import { CLAIM_TYPES, REASON_CATEGORIES, ACCOUNT_DECISIONS } from './bodies.ts';

type Schema = Record<string, unknown>;

const string: Schema = { type: 'string' };
const numericString: Schema = { type: 'string', pattern: '^[0-9]+$' };
const int32: Schema = { type: 'integer', minimum: -2_147_483_648, maximum: 2_147_483_647 };
const int64: Schema = { type: 'integer' };
const strings: Schema = { type: 'array', items: string };
/** ISO 8601 date-time, e.g. 2026-11-22T15:00:00.000Z. */
const dateTime: Schema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' };
/** ISO 8601 date, e.g. 2026-12-01. */
const date: Schema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
/** Document 2: the shared `type` enum, with its "renamed here" values. */
const notificationType = (only: string): Schema => ({
  type: 'string',
  enum: ['VENDOR_ORDER_DECISION', 'ORDER_STATUS_UPDATE', 'VENDOR_ACCOUNT_STATUS_UPDATE', 'COMPENSATION_REQUEST_UPDATE'],
  const: only,
});

const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const UPDATED_FIELDS = [
  'paymentAccountReference',
  'networkTokenExpirationMonth',
  'networkTokenExpirationYear',
  'networkTokenState',
  'lastFourDigits',
  'expirationMonth',
  'expirationYear',
  'cardState',
];

/** Document 2 §2 "Token update body": expiration and timestamp are numeric strings. */
const tokenUpdated = object(
  {
    token: string,
    card: object({ bin: string, lastFourDigits: string, expiration: numericString, state: string }, ['bin', 'lastFourDigits', 'expiration', 'state']),
    networkToken: object(
      { networkToken: string, expiration: numericString, paymentAccountReference: string, state: string },
      ['networkToken', 'expiration', 'paymentAccountReference', 'state'],
    ),
    source: string,
    updatedFields: { type: 'object', propertyNames: { enum: UPDATED_FIELDS }, additionalProperties: string },
    cardArt: { type: 'string', contentEncoding: 'base64', pattern: '^[A-Za-z0-9+/]*={0,2}$' },
    timestamp: numericString,
  },
  // The table lists no "Required" column; the fields every update has are required here.
  ['token', 'card', 'source', 'updatedFields', 'timestamp'],
);

/** Document 2 §2 "Request for evidence body", its Required column exactly. */
const evidenceRequest = object(
  {
    timestamp: dateTime,
    processorCaseNumber: string,
    processorChargeId: string,
    orderId: string,
    claimId: int64,
    processorName: string,
    issueDate: date,
    dueDate: date,
    hoursLeftUntilDisputed: int32,
    claimType: { type: 'string', enum: [...CLAIM_TYPES] },
    reasonCode: string,
    reasonCategory: { type: 'string', enum: [...REASON_CATEGORIES] },
    cardType: string,
    amountClaimCurrency: { type: 'number' },
    claimCurrency: string,
    requestedEvidenceTypes: strings,
    uniqueMessageId: string,
  },
  ['timestamp', 'orderId', 'claimId', 'issueDate', 'dueDate', 'hoursLeftUntilDisputed', 'claimType', 'amountClaimCurrency', 'claimCurrency', 'requestedEvidenceTypes', 'uniqueMessageId'],
);

/** Document 2 §2 "Account status update body": every field optional; int32 seconds. */
const accountUpdate = object(
  {
    timestamp: int32,
    type: notificationType('VENDOR_ACCOUNT_STATUS_UPDATE'),
    accountId: string,
    vendorDecision: { type: 'string', enum: [...ACCOUNT_DECISIONS] },
    reasons: strings,
    recommendations: strings,
    linkToAccountInDashboard: string,
  },
  [],
);

/** Document 2 §2 "Order status update body" and the limits of §8. */
const orderStatusUpdate = object(
  {
    timestamp: int32,
    type: notificationType('ORDER_STATUS_UPDATE'),
    orderId: string,
    merchantAction: { type: 'string', enum: ['RELEASE', 'CANCEL'] },
    triggeredBy: { type: 'string', maxLength: 75 },
    agentComments: { type: 'string', maxLength: 255 },
    linkToOrderInDashboard: string,
  },
  [],
);

/** Document 2 §2 "Item listing request update body": required fields "not shown"; `type` is fixed. */
const itemListingUpdate = object(
  {
    timestamp: numericString,
    type: { type: 'string', const: 'ITEM_LISTING_REQUEST_UPDATE' },
    accountId: string,
    eventId: string,
    correlationId: string,
    merchantAction: string,
    triggeredBy: string,
    agentComments: string,
    linkToEventInVendorDashboard: string,
  },
  ['type'],
);

export const NOTIFICATION_SCHEMAS: Record<NotificationPath, Schema> = {
  '/token-updated': tokenUpdated,
  '/requestforevidencenotification': evidenceRequest,
  '/accountupdatenotification': accountUpdate,
  '/orderstatusupdatenotification': orderStatusUpdate,
  '/itemlistingrequestupdatenotification': itemListingUpdate,
};
