/**
 * The notification bodies of document 2 §2, field for field. Every producer builds its body here, so the shapes
 * live in one place (their JSON schemas sit beside them in schemas.ts). Times follow document 2's types exactly:
 * int32 seconds on account and order updates, numeric strings (epoch milliseconds) on token and item-listing
 * updates, ISO 8601 on evidence requests.
 */

/** Document 2: "renamed here" values of the shared `type` enum. */
export type NotificationType = 'VENDOR_ORDER_DECISION' | 'ORDER_STATUS_UPDATE' | 'VENDOR_ACCOUNT_STATUS_UPDATE' | 'COMPENSATION_REQUEST_UPDATE';

/** Document 2 `/accountupdatenotification` vendorDecision values (CONTRACT §3 maps request decisions onto them). */
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
 * so a link in a notification opens the right record for whoever is signed in there.
 */
export const dashboardLinks = {
  account: (publicUrl: string, accountId: string) => `${publicUrl}/staff#/accounts/${encodeURIComponent(accountId)}`,
  order: (publicUrl: string, orderId: string) => `${publicUrl}/staff#/orders/${encodeURIComponent(orderId)}`,
  itemListing: (publicUrl: string, eventId: string) => `${publicUrl}/staff#/item-listings/${encodeURIComponent(eventId)}`,
  claim: (publicUrl: string, claimId: string) => `${publicUrl}/staff#/claims/${encodeURIComponent(claimId)}`,
};
