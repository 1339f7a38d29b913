/** Merchants, 3DS enrollment, accounts and decisions (issue 6): table shapes as kysely sees them (migration 0005). */

export interface MerchantTable {
  /** The merchant's own site id (docs/platform.md#credentials): its credentials live in `sites`. */
  id: string;
  /** The site that created it; only that site (and the merchant itself) sees it. */
  owner_site_id: string;
  merchant_id: string;
  name: string;
  /** lower-cased name: unique per owner site (docs/platform.md#merchant-names). */
  name_key: string;
  mcc: string;
  /** merchantAccountCreation as sent (JSON), or null when absent. */
  account_creation: string | null;
  created_at: number;
}

export interface ThreeDsRequestTable {
  id: string;
  merchant_site_id: string;
  /** The offerings object as sent (JSON). */
  offerings: string;
  status: string;
  reason: string | null;
  /** When the scheduler completes it (a row with a due time, DESIGN.md). */
  due_at: number;
  created_at: number;
  completed_at: number | null;
}

export interface PlatformAccountTable {
  /** The site whose requests decide it (migration 0007): (site_id, account_id) is the key (docs/platform.md#accounts-per-site). */
  site_id: string;
  account_id: string;
  /** Document 2's account vendorDecision values. */
  status: string;
  /** JSON arrays of the latest reasons and recommendations. */
  reasons: string;
  recommendations: string;
  updated_at: number;
}

export interface AccountRequestTable {
  id: string;
  site_id: string;
  /** `item-listing` or `profile-access`. */
  kind: string;
  /** The path id of document 3 §4 (the item listing's eventId). */
  event_id: string;
  account_id: string;
  event_time: number;
  customer_ip: string | null;
  /** The body as sent, unknown fields included (JSON). */
  request: string;
  vendor_decision: string;
  reason_codes: string;
  recommendations: string;
  /** JSON FiredRule[]: which rules fired and why. */
  fired_rules: string;
  correlation_id: string;
  /** null, or AWAITING_REVIEW (NOT_REVIEWED), then RELEASED or CANCELLED by staff. */
  review_status: string | null;
  reviewed_by: string | null;
  review_comments: string | null;
  reviewed_at: number | null;
  created_at: number;
}

export interface OrderDecisionTable {
  /** `order:1001` or `payment:<id>`: one decision per order. */
  ref: string;
  kind: string;
  order_id: string;
  action: string;
  triggered_by: string;
  comments: string | null;
  decided_at: number;
}

export interface PlatformTables {
  merchants: MerchantTable;
  three_ds_requests: ThreeDsRequestTable;
  platform_accounts: PlatformAccountTable;
  account_requests: AccountRequestTable;
  order_decisions: OrderDecisionTable;
}
