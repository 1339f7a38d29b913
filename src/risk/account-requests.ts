/**
 * The bodies of document 3's two risk requests (§2 "Seller item listing request", "Profile access request"):
 * typed where document 3 gives a type, every other field kept as sent, but an item's price: untyped there, it must be
 * a number or a numeric string, because the high-value rule multiplies it (a price sent as an object would pass that
 * rule unjudged). Document 3 leaves required fields "not
 * shown"; the platform requires `accountId` (decisions are recorded against it, docs/platform.md#accounts) and `eventTime` (the
 * velocity window ends there, so one input always gives one decision).
 */
import { DomainError, type FieldError } from '../kernel/errors.ts';
import { arr, checkShape, isRecord, obj, type ObjectShape } from '../kernel/json-shape.ts';

export type RequestKind = 'item-listing' | 'profile-access';

export interface AccountRequest {
  kind: RequestKind;
  accountId: string;
  /** Epoch milliseconds (document 3: "integer, 13-digit epoch value"). */
  eventTime: number;
  /** The whole body as sent, unknown fields included. */
  body: Record<string, unknown>;
}

export const ACCOUNT_ID_MAX = 200;

const verification = obj({ sent: 'boolean', verified: 'boolean' });
const address = obj({ address1: 'string', city: 'string', country: 'string', savedData: obj({ usedSavedData: 'boolean' }) });
const engaged = obj({ updateTimes: obj({ creationTime: 'integer' }) });
const connectionInformation = obj({ customerIP: 'string', userAgent: 'string' });
const cryptoWallet = obj({ cryptoWalletType: 'string' });
const threeDSecure = obj({ acquirerData: 'object', forcePsd2Exemption: obj({ channel: 'string', type: 'string' }), threeDSServerTransID: 'string' });

const accountData = obj({
  additionalVerificationDocuments: 'object',
  addressesInAccount: arr(address),
  customerEngagement: obj({
    communityPostsWritten: engaged,
    likedItems: engaged,
    messagesReceived: engaged,
    messagesSent: engaged,
    newsletters: engaged,
    reviewsWritten: engaged,
    sharedItems: engaged,
    wishlist: engaged,
    invites: arr(obj({ type: 'string' })),
    savedLocations: arr(obj({ latitude: 'number', longitude: 'number', source: 'string' })),
  }),
  emailsInAccount: arr(obj({ email: 'string', emailVerification: verification })),
  phonesInAccount: arr(obj({ phone: 'string', smsVerified: verification })),
  ratingAsBuyer: obj({ score: 'string', source: 'string', type: 'string' }),
});

const listedItem = obj({
  basicItemData: obj({ discount: 'object', name: 'string', price: 'numeric', quantity: 'integer', type: 'string' }),
  beneficiaries: arr(obj({ address, cryptoWallet, comments: 'string', phone: arr('object') })),
  deliveryDetails: obj({ deliveryMethod: 'string', deliveryType: 'string' }),
  itemReturnData: 'object',
  itemSpecificData: obj({ transport: arr('object') }),
  seller: obj({ sellerDetails: obj({ sellerLastLoginIP: obj({ ip: 'string' }), sellerRegistrationIP: obj({ ip: 'string' }) }) }),
});

const newPaymentMethods = obj({
  bankTransfer: 'object',
  billingDetails: obj({
    address,
    allAdditionalVerificationDocuments: arr('object'),
    employmentInformation: arr(obj({ employerAddress: address, employerName: 'string' })),
    phone: arr('object'),
  }),
  creditCard: obj({
    bin: 'string',
    expirationMonth: 'string',
    expirationYear: 'string',
    lastFourDigits: 'string',
    nameOnCard: 'string',
    threeDSecure,
    verificationResults: 'object',
  }),
  creditLineDetails: obj({ askedToIncreaseCreditLineLimit: 'boolean' }),
  cryptoWallet,
  digitalWallet: obj({ digitalWalletName: 'string', underlyingPaymentMethod: obj({ underlyingPaymentMethodType: 'string' }) }),
  loyaltyPoints: obj({ loyaltyPointsCount: 'integer' }),
  mobileMoney: obj({ mobileMoneyNetwork: 'string', phoneNumber: 'string' }),
  recurringPayment: obj({ initialPaymentOrderId: 'string', recurringPaymentFrequency: 'string' }),
  savedData: obj({ usedSavedData: 'boolean' }),
});

const common = {
  accountId: 'string',
  additionalInformation: 'object',
  connectionInformation,
  eventTime: 'integer',
  merchantIdentifiers: 'object',
} as const;

const SHAPES: Record<RequestKind, ObjectShape> = {
  'item-listing': obj({ ...common, accountData, listedItems: arr(listedItem) }),
  'profile-access': obj({
    ...common,
    accountOwner: obj({ email: 'string', firstName: 'string', lastName: 'string', socialNetworkData: arr(obj({ networkName: 'string', profileId: 'string' })) }),
    additionalAccountEventIdentifiers: 'object',
    newAddress: address,
    newEmail: obj({ email: 'string', emailVerification: verification }),
    newPaymentMethods,
    newPhone: obj({ phone: 'string', smsVerified: verification }),
  }),
};

/** The checked request, or a 400 listing every failing field (docs/platform.md#error-bodies). */
export function parseAccountRequest(kind: RequestKind, body: unknown): AccountRequest {
  if (!isRecord(body)) throw new DomainError('bad_request', 'The request body must be a JSON object.', { field: 'body' });
  const errors: FieldError[] = [];
  const { accountId, eventTime } = body;
  if (accountId === undefined || accountId === null) errors.push({ field: 'accountId', message: 'accountId is required.' });
  else if (typeof accountId === 'string' && (accountId.trim() === '' || accountId.length > ACCOUNT_ID_MAX)) {
    errors.push({ field: 'accountId', message: `accountId must be 1 to ${ACCOUNT_ID_MAX} characters.` });
  }
  // A lone surrogate ("\ud800") never reaches here: every REST body is refused with one (src/kernel/unicode-text.ts).
  if (eventTime === undefined || eventTime === null) errors.push({ field: 'eventTime', message: 'eventTime is required.' });
  else if (Number.isSafeInteger(eventTime) && !isThirteenDigits(eventTime as number)) {
    errors.push({ field: 'eventTime', message: 'eventTime must be a 13-digit epoch value in milliseconds.' });
  }
  checkShape(body, SHAPES[kind], '', errors);
  if (errors.length > 0) {
    throw new DomainError('bad_request', `The request has ${errors.length} invalid field(s): ${errors[0]!.message}`, {
      field: errors[0]!.field,
      errors,
    });
  }
  return { kind, accountId: accountId as string, eventTime: eventTime as number, body };
}

const isThirteenDigits = (value: number) => value >= 1e12 && value < 1e13;
