/**
 * What the decision and review services share: the account status mapping of CONTRACT §3, the account update
 * notification of document 2 (queued in the caller's transaction, only when the status changes), and the views of
 * stored rows.
 */
import type { FiredRule, VendorDecision } from '../domain/rules/types.ts';
import type { Db } from '../db/database.ts';
import * as accounts from '../db/account-repository.ts';
import { dashboardLinks, epochSeconds, type AccountDecision, type AccountUpdateBody } from '../notifications/bodies.ts';
import { queueNotification } from '../notifications/outbox.ts';

export const ACCOUNT_STATUS_OF: Record<VendorDecision, AccountDecision> = {
  APPROVE: 'ACTIVATE',
  DECLINE: 'DEACTIVATE',
  VERIFICATION_REQUIRED: 'VERIFICATION_REQUIRED',
  NOT_REVIEWED: 'NOT_REVIEWED',
};

export interface AccountState {
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
 * Saves the account's new state inside `trx`; when its status differs from the stored one (or it is new), queues
 * the `/accountupdatenotification` body and returns the outbox id. CONTRACT §3: none when the status stays.
 */
export async function applyAccountState(trx: Db, next: AccountState, publicUrl: string): Promise<string | null> {
  const previous = await accounts.findAccount(trx, next.accountId);
  await accounts.saveAccount(trx, {
    account_id: next.accountId,
    status: next.status,
    reasons: JSON.stringify(next.reasons),
    recommendations: JSON.stringify(next.recommendations),
    updated_at: next.updatedAt,
  });
  if (previous?.status === next.status) return null;
  const body: AccountUpdateBody = {
    timestamp: epochSeconds(next.updatedAt),
    type: 'VENDOR_ACCOUNT_STATUS_UPDATE',
    accountId: next.accountId,
    vendorDecision: next.status,
    reasons: next.reasons,
    recommendations: next.recommendations,
    linkToAccountInDashboard: dashboardLinks.account(publicUrl, next.accountId),
  };
  return queueNotification(trx, { path: '/accountupdatenotification', body: { ...body }, subject: next.accountId }, next.updatedAt);
}

export function toAccountState(row: accounts.AccountRow): AccountState {
  return {
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
