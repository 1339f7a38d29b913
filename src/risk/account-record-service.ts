/**
 * What the decision and review services share: the account status mapping of docs/platform.md#accounts, the account update
 * notification of document 2 (queued in the caller's transaction, only when the status changes), and the views of
 * stored rows.
 */
import type { VendorDecision } from '../kernel/vendor-decisions.ts';
import type { FiredRule } from './rules/types.ts';
import type { Db } from '../db/database.ts';
import * as accounts from './account-repository.ts';
import { dashboardLinks, epochSeconds, type AccountDecision, type AccountUpdateBody } from '../notifications/bodies.ts';
import { queueNotification, type Queued } from '../notifications/outbox-service.ts';

export const ACCOUNT_STATUS_OF: Record<VendorDecision, AccountDecision> = {
  APPROVE: 'ACTIVATE',
  DECLINE: 'DEACTIVATE',
  VERIFICATION_REQUIRED: 'VERIFICATION_REQUIRED',
  NOT_REVIEWED: 'NOT_REVIEWED',
};

export interface AccountState {
  /** The site the account belongs to: an account id is one site's (docs/platform.md#accounts-per-site). */
  siteId: string;
  accountId: string;
  status: AccountDecision;
  reasons: string[];
  recommendations: string[];
  updatedAt: number;
}

export interface AccountRequestView {
  id: string;
  kind: 'item-listing' | 'profile-access';
  eventId: string;
  siteId: string;
  accountId: string;
  eventTime: number;
  vendorDecision: VendorDecision;
  reasonCodes: string[];
  recommendations: string[];
  correlationId: string;
  firedRules: FiredRule[];
  /** null, AWAITING_REVIEW, RELEASED or CANCELLED. */
  reviewStatus: string | null;
  reviewedBy: string | null;
  reviewComments: string | null;
  reviewedAt: number | null;
  createdAt: number;
}

/**
 * Applies the account's new status inside `trx`. When it differs from the stored one (or the account is new), the
 * account takes the new reasons and recommendations and the `/accountupdatenotification` body is queued; its
 * queued notification is returned. docs/platform.md#accounts: none when the status stays; the account then keeps the reasons of its last
 * change, unless `replaceReasons` (a staff review restating the status with new reasons).
 */
export async function applyAccountState(trx: Db, next: AccountState, publicUrl: string, { replaceReasons = false } = {}): Promise<Queued | null> {
  const row = {
    site_id: next.siteId,
    account_id: next.accountId,
    status: next.status,
    reasons: JSON.stringify(next.reasons),
    recommendations: JSON.stringify(next.recommendations),
    updated_at: next.updatedAt,
  };
  // Decided on the row itself: a conditional update, else an insert of a new account. When a concurrent first decision
  // inserted the account between the two (the insert then finds it and does nothing), the update is tried again on
  // that committed row, so this change is neither lost nor left without its notification.
  const changed =
    (await accounts.changeAccountStatus(trx, row)) || (await accounts.insertAccountIfNew(trx, row)) || (await accounts.changeAccountStatus(trx, row));
  if (!changed) {
    if (replaceReasons) await accounts.updateAccountReasons(trx, row);
    return null;
  }
  const body: AccountUpdateBody = {
    timestamp: epochSeconds(next.updatedAt),
    type: 'VENDOR_ACCOUNT_STATUS_UPDATE',
    accountId: next.accountId,
    vendorDecision: next.status,
    reasons: next.reasons,
    recommendations: next.recommendations,
    linkToAccountInDashboard: dashboardLinks.account(publicUrl, next.accountId, next.siteId),
  };
  return queueNotification(trx, '/accountupdatenotification', body, { subject: next.accountId, now: next.updatedAt, site: next.siteId });
}

export function toAccountState(row: accounts.AccountRow): AccountState {
  return {
    siteId: row.site_id,
    accountId: row.account_id,
    status: row.status as AccountDecision,
    reasons: JSON.parse(row.reasons) as string[],
    recommendations: JSON.parse(row.recommendations) as string[],
    updatedAt: Number(row.updated_at),
  };
}

export function toRequestView(row: accounts.AccountRequestRow): AccountRequestView {
  return {
    id: row.id,
    kind: row.kind as AccountRequestView['kind'],
    eventId: row.event_id,
    siteId: row.site_id,
    accountId: row.account_id,
    eventTime: Number(row.event_time),
    vendorDecision: row.vendor_decision as VendorDecision,
    reasonCodes: JSON.parse(row.reason_codes) as string[],
    recommendations: JSON.parse(row.recommendations) as string[],
    correlationId: row.correlation_id,
    firedRules: JSON.parse(row.fired_rules) as FiredRule[],
    reviewStatus: row.review_status,
    reviewedBy: row.reviewed_by,
    reviewComments: row.review_comments,
    reviewedAt: row.reviewed_at === null ? null : Number(row.reviewed_at),
    createdAt: Number(row.created_at),
  };
}
