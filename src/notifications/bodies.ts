/**
 * The notification bodies of document 2 §2, field for field. Every producer builds its body here, so the shapes
 * live in one place (their JSON schemas sit beside them in schemas.ts). Times follow document 2's types exactly:
 * int32 seconds on account and order updates, numeric strings (epoch milliseconds) on token and item-listing
 * updates, ISO 8601 on evidence requests.
 */

/** Document 2: "renamed here" values of the shared `type` enum. */
export type NotificationType = 'VENDOR_ORDER_DECISION' | 'ORDER_STATUS_UPDATE' | 'VENDOR_ACCOUNT_STATUS_UPDATE' | 'COMPENSATION_REQUEST_UPDATE';

/** Document 2 `/accountupdatenotification` vendorDecision values (docs/platform.md#accounts maps request decisions onto them). */
export const ACCOUNT_DECISIONS = ['ACTIVATE', 'DEACTIVATE', 'RESTRICT_POLICY', 'ENABLE_POLICY', 'VERIFICATION_REQUIRED', 'NOT_REVIEWED'] as const;
export type AccountDecision = (typeof ACCOUNT_DECISIONS)[number];

export type MerchantAction = 'RELEASE' | 'CANCEL';

/** The names document 2 lists for `updatedFields`; each value is the new value as a string. */
export type UpdatedField =
  | 'paymentAccountReference'
  | 'networkTokenExpirationMonth'
  | 'networkTokenExpirationYear'
  | 'networkTokenState'
  | 'lastFourDigits'
  | 'expirationMonth'
  | 'expirationYear'
  | 'cardState';

export interface TokenUpdatedBody {
  token: string;
  /** `expiration` is MMYY as a numeric string, e.g. "1228". */
  card: { bin: string; lastFourDigits: string; expiration: string; state: string };
  networkToken?: { networkToken: string; expiration: string; paymentAccountReference: string; state: string };
  /** Where the update came from: `ACCOUNT_UPDATER` (card update) or `NETWORK_TOKEN_PROVISIONING`. */
  source: string;
  updatedFields: Partial<Record<UpdatedField, string>>;
  /** base64 card image, when known. */
  cardArt?: string;
  /** Epoch milliseconds as a numeric string. */
  timestamp: string;
}

export interface AccountUpdateBody {
  timestamp: number;
  type: 'VENDOR_ACCOUNT_STATUS_UPDATE';
  accountId: string;
  vendorDecision: AccountDecision;
  reasons: string[];
  recommendations: string[];
  linkToAccountInDashboard: string;
}

export interface OrderStatusUpdateBody {
  timestamp: number;
  type: 'ORDER_STATUS_UPDATE';
  orderId: string;
  merchantAction: MerchantAction;
  /** At most 75 characters (document 2 §8). */
  triggeredBy: string;
  /** At most 255 characters (document 2 §8); omitted when none was given. */
  agentComments?: string;
  linkToOrderInDashboard: string;
}

export interface ItemListingUpdateBody {
  timestamp: string;
  type: 'ITEM_LISTING_REQUEST_UPDATE';
  accountId: string;
  eventId: string;
  correlationId: string;
  merchantAction: MerchantAction;
  triggeredBy: string;
  agentComments?: string;
  linkToEventInVendorDashboard: string;
}

/** int32 seconds since the epoch (document 2: `timestamp` of account and order updates). */
export function epochSeconds(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}

/** A numeric string of epoch milliseconds (document 2: "numeric strings"). */
export function numericTimestamp(nowMs: number): string {
  return String(Math.floor(nowMs));
}

/**
 * Dashboard links point at the staff console of this server (PUBLIC_URL/staff), one fragment per kind of subject,
 * so a link in a notification opens the right record for whoever is signed in there. An account id is one site's
 * (docs/platform.md#accounts-per-site), as an item listing's event id is, so their links name the site too.
 */
export const dashboardLinks = {
  account: (publicUrl: string, accountId: string, siteId: string) =>
    `${publicUrl}/staff#/accounts/${encodeURIComponent(accountId)}?site=${encodeURIComponent(siteId)}`,
  order: (publicUrl: string, orderId: string) => `${publicUrl}/staff#/orders/${encodeURIComponent(orderId)}`,
  // An event id is one site's too: two sites' listings `lst-1` had one link (a merchant review).
  itemListing: (publicUrl: string, eventId: string, siteId: string) =>
    `${publicUrl}/staff#/item-listings/${encodeURIComponent(eventId)}?site=${encodeURIComponent(siteId)}`,
  claim: (publicUrl: string, claimId: string) => `${publicUrl}/staff#/claims/${encodeURIComponent(claimId)}`,
};

/** Document 2 §2 `claimType` values. */
export const CLAIM_TYPES = [
  'CHARGEBACK',
  'PRE_CHARGEBACK',
  'FAIL_TO_BILL',
  'FRAUD_DECISION',
  'DEBIT_MEMO',
  'FRAUD_ALERT',
  'REQUEST_FOR_INFORMATION',
  'COMPENSATION_REQUEST',
  'MERCHANT_CONFIRMED_FRAUD',
  'VICTIM_CONFIRMED_FRAUD',
] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

/** Document 2 §2 `reasonCategory` values. */
export const REASON_CATEGORIES = ['FRAUD', 'SERVICE', 'GENERAL', 'AUTHORIZATION', 'PROCESSING_ERROR'] as const;
export type ReasonCategory = (typeof REASON_CATEGORIES)[number];

/**
 * Document 2 §2 evidence rules: the types that data points can satisfy, keyed by their data point group name.
 * Every other type (INVOICE, …) is satisfied by a file only. The full glossary is "not shown".
 */
export const DATA_POINT_GROUPS = {
  proofsOfRefund: 'PROOF_OF_REFUND',
  proofsOfDelivery: 'PROOF_OF_DELIVERY',
  customerCorrespondences: 'CUSTOMER_CORRESPONDENCE',
  proofsOfReplacement: 'PROOF_OF_ORDER_REPLACEMENT',
  proofsOfCreditBalance: 'CREDIT_BALANCE',
  proofsOfUsage: 'PROOF_OF_POSSESSION_OR_USAGE',
  buyerReviewSurveys: 'BUYER_REVIEW_SURVEY',
  itemsHeldInCustoms: 'PURCHASE_HELD_IN_CUSTOMS',
  itemDescriptions: 'ITEM_DESCRIPTION',
  subscriptionDetails: 'RECURRING_BILLING_AGREEMENT',
} as const;
export type DataPointGroup = keyof typeof DATA_POINT_GROUPS;

export interface EvidenceRequestBody {
  /** ISO 8601 date-time the request was made. */
  timestamp: string;
  processorCaseNumber?: string;
  processorChargeId?: string;
  orderId: string;
  /** int64. */
  claimId: number;
  processorName?: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  dueDate: string;
  /** int32, computed at send time from dueDate (the dispatcher fills it in; see send-time.ts). */
  hoursLeftUntilDisputed?: number;
  claimType: ClaimType;
  reasonCode?: string;
  reasonCategory?: ReasonCategory;
  cardType?: string;
  amountClaimCurrency: number;
  claimCurrency: string;
  /** Only the types still missing when this request or reminder was made. */
  requestedEvidenceTypes: string[];
  /** The outbox id of this notification (= webhook-id), filled in at send time and kept on redelivery. */
  uniqueMessageId?: string;
}
