/**
 * Accounts and the risk requests decided for them (migrations 0005, 0007). An account is one site's: every lookup,
 * update and history read is by (site, account id) (docs/platform.md#accounts-per-site). Rows in, rows out; `db` may
 * be a transaction.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { compiledOnce, executeCompiled } from '../db/compiled-once.ts';
import type { AccountRequestTable, PlatformAccountTable } from './risk-tables.ts';

export type AccountRow = Selectable<PlatformAccountTable>;
export type AccountRequestRow = Selectable<AccountRequestTable>;

export async function findAccount(db: Db, siteId: string, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('platform_accounts').selectAll().where('site_id', '=', siteId).where('account_id', '=', accountId).executeTakeFirst();
}

/** The accounts of every site with this id, by site id (for staff, who see all sites). */
export async function accountsWithId(db: Db, accountId: string): Promise<AccountRow[]> {
  return db.selectFrom('platform_accounts').selectAll().where('account_id', '=', accountId).orderBy('site_id').execute();
}

/**
 * Moves an account to `row.status` only if it has another status: true when it did. A conditional update, so of
 * two concurrent requests moving it to the same status exactly one sees a change (PostgreSQL re-checks the
 * condition after the first commits).
 */
export async function changeAccountStatus(db: Db, row: AccountRow): Promise<boolean> {
  const { site_id, account_id, status, reasons, recommendations, updated_at } = row;
  const result = await changeStatusQuery(db, { site_id, account_id, status, reasons, recommendations, updated_at });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

// The decision path's writes are compiled once (src/db/compiled-once.ts: no value changes their shape).
const changeStatusQuery = compiledOnce((db: Db, row: AccountRow) =>
  db
    .updateTable('platform_accounts')
    .set({ status: row.status, reasons: row.reasons, recommendations: row.recommendations, updated_at: row.updated_at })
    .where('site_id', '=', row.site_id)
    .where('account_id', '=', row.account_id)
    .where('status', '<>', row.status),
);

/** Creates the account unless it exists: true when this call created it. */
export async function insertAccountIfNew(db: Db, row: AccountRow): Promise<boolean> {
  const result = await insertAccountQuery(db, row);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const insertAccountQuery = compiledOnce((db: Db, row: AccountRow) =>
  db.insertInto('platform_accounts').values(row).onConflict((oc) => oc.columns(['site_id', 'account_id']).doNothing()),
);

export async function updateAccountReasons(db: Db, row: AccountRow): Promise<void> {
  await db
    .updateTable('platform_accounts')
    .set({ reasons: row.reasons, recommendations: row.recommendations, updated_at: row.updated_at })
    .where('site_id', '=', row.site_id)
    .where('account_id', '=', row.account_id)
    .execute();
}

export async function insertAccountRequest(db: Db, row: AccountRequestRow): Promise<void> {
  await insertRequestQuery(db, row);
}

const insertRequestQuery = compiledOnce((db: Db, row: AccountRequestRow) => db.insertInto('account_requests').values(row));

export async function findRequestByEvent(db: Db, siteId: string, kind: string, eventId: string): Promise<AccountRequestRow | undefined> {
  return db
    .selectFrom('account_requests')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

/** Item listings with this event id on any site, those awaiting review first. */
export async function findItemListings(db: Db, eventId: string): Promise<AccountRequestRow[]> {
  return db
    .selectFrom('account_requests')
    .selectAll()
    .where('kind', '=', 'item-listing')
    .where('event_id', '=', eventId)
    .orderBy('created_at')
    .execute();
}

export interface StoredHistory {
  accountAttempts: number;
  ipAttempts: number;
  accountSeen: boolean;
  ipUsedByAccount: boolean;
}

/**
 * The history the rules read, in one statement: the site's requests of the account and from the IP with
 * from < event_time <= until (velocity), and whether the account, or the account from this IP, came up to `until`.
 * Requests stored earlier with the same eventTime count: they came first. Only this site's requests count
 * (docs/platform.md#accounts-per-site): another site's traffic never moves this site's decisions.
 */
export async function requestHistory(
  db: Db,
  siteId: string,
  accountId: string,
  ip: string | null,
  from: number,
  until: number,
): Promise<StoredHistory> {
  // Plain SQL that both dialects run: four index range scans (account_requests_site_account, account_requests_site_ip).
  const history = sql<{ account_attempts: number; ip_attempts: number; account_seen: number | boolean; ip_used: number | boolean }>`
    select
      (select count(*) from account_requests where site_id = ${siteId} and account_id = ${accountId} and event_time > ${from} and event_time <= ${until}) as account_attempts,
      (select count(*) from account_requests where site_id = ${siteId} and customer_ip = ${ip ?? ''} and event_time > ${from} and event_time <= ${until}) as ip_attempts,
      exists (select 1 from account_requests where site_id = ${siteId} and account_id = ${accountId} and event_time <= ${until}) as account_seen,
      exists (select 1 from account_requests where site_id = ${siteId} and account_id = ${accountId} and customer_ip = ${ip ?? ''} and event_time <= ${until}) as ip_used`;
  const { rows } = await executeCompiled(db, history.compile(db));
  const row = rows[0]!;
  return {
    accountAttempts: Number(row.account_attempts),
    ipAttempts: ip ? Number(row.ip_attempts) : 0,
    accountSeen: Boolean(Number(row.account_seen)),
    ipUsedByAccount: ip !== null && Boolean(Number(row.ip_used)),
  };
}

/** The latest `limit` requests of the site's account, returned oldest first. */
export async function requestsOfAccount(db: Db, siteId: string, accountId: string, limit: number): Promise<AccountRequestRow[]> {
  const rows = await db
    .selectFrom('account_requests')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('account_id', '=', accountId)
    .orderBy('event_time', 'desc')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

export async function itemListingsByReview(db: Db, reviewStatus: string, limit: number): Promise<AccountRequestRow[]> {
  return db
    .selectFrom('account_requests')
    .selectAll()
    .where('kind', '=', 'item-listing')
    .where('review_status', '=', reviewStatus)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Staff decide a listing once: only while it has no staff decision. */
export async function markListingReviewed(
  db: Db,
  id: string,
  review: { status: string; by: string; comments: string | null; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('account_requests')
    .set({ review_status: review.status, reviewed_by: review.by, review_comments: review.comments, reviewed_at: review.at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('review_status', 'is', null), eb('review_status', '=', 'AWAITING_REVIEW')]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
