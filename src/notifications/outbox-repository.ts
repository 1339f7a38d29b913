/**
 * Kysely queries for the notification outbox (migrations 0003, 0009): the dispatcher's claim with a lease, the
 * guarded record of an attempt, staff listing and redelivery, sealing bodies kept in the clear before issue 14.
 * Rows in, rows out; `db` may be a transaction.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { OutboxAttemptTable, OutboxNotificationTable, OutboxStatus } from './outbox-tables.ts';

export type OutboxRow = Selectable<OutboxNotificationTable>;
export type AttemptRow = Selectable<OutboxAttemptTable>;

/** When a request made deliveries due, and its `traceparent` (their attempts' spans go under it; null when untraced). */
export interface AskedNow {
  now: number;
  traceParent: string | null;
}

/** Queues one notification (`db` is the transaction of the change that causes it). */
export async function insertNotification(db: Db, row: Insertable<OutboxNotificationTable>): Promise<void> {
  await db.insertInto('outbox_notifications').values(row).execute();
}

export interface ClaimRequest {
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
  /** PostgreSQL: `for update skip locked`, so instances never wait on each other's rows. */
  skipLocked: boolean;
}

/**
 * Leases up to `limit` due rows (PENDING, due, lease free or run out) to `owner`, earliest first, in one
 * statement. The outer conditions repeat the inner ones, so on SQLite (no row locks) a row that another process
 * leased between the two is left alone: the update is conditional either way.
 */
export async function claimDue(db: Db, { owner, now, leaseMs, limit, skipLocked }: ClaimRequest): Promise<OutboxRow[]> {
  const due = db
    .selectFrom('outbox_notifications')
    .select('id')
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', now)
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)]))
    .orderBy('next_attempt_at', 'asc')
    .limit(limit);
  return db
    .updateTable('outbox_notifications')
    .set({ lease_owner: owner, lease_until: now + leaseMs })
    // On PostgreSQL an array of the locking subquery, computed once: as `in (…)` it may run more than once inside
    // the join and lease more than `limit` rows (delivery-repository.ts's claim met it).
    .where('id', skipLocked ? '=' : 'in', skipLocked ? sql<string>`any(array(${due.forUpdate().skipLocked()}))` : due)
    .where('status', '=', 'PENDING')
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)]))
    .returningAll()
    .execute();
}

/** When the dispatcher should look again: the earliest due row, or the earliest lease that runs out. */
export async function nextWake(db: Db, now: number): Promise<number | null> {
  const [due, lease] = await Promise.all([
    db
      .selectFrom('outbox_notifications')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('status', '=', 'PENDING')
      .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)]))
      .executeTakeFirst(),
    db
      .selectFrom('outbox_notifications')
      .select((eb) => eb.fn.min('lease_until').as('at'))
      .where('status', '=', 'PENDING')
      .where('lease_until', '>', now)
      .executeTakeFirst(),
  ]);
  const times = [due?.at, lease?.at].filter((t) => t != null).map(Number);
  return times.length > 0 ? Math.min(...times) : null;
}

/** The row as its lease holder sees it; undefined when the lease was lost (run out and taken by another). */
export async function findLeased(db: Db, id: string, owner: string, lock: boolean): Promise<OutboxRow | undefined> {
  const query = db.selectFrom('outbox_notifications').selectAll().where('id', '=', id).where('lease_owner', '=', owner);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** A row's new state after an attempt; a merchant endpoint's delivery takes the same (delivery-repository.ts). */
export interface RowState {
  status: OutboxStatus;
  nextAttemptAt: number | null;
  roundAttempts: number;
  attemptCount: number;
  deliveredAt: number | null;
  lastError: string | null;
  now: number;
}

/**
 * Writes the row's new state and frees the lease, only while `owner` still holds it and no redelivery came since
 * `redeliveries` was read (docs/notifications.md#redelivery-during-an-attempt); false when it changed. Run inside
 * the transaction of findLeased.
 */
export async function updateLeased(db: Db, id: string, owner: string, redeliveries: number, state: RowState): Promise<boolean> {
  const result = await db
    .updateTable('outbox_notifications')
    .set({
      status: state.status,
      attempt_count: state.attemptCount,
      round_attempts: state.roundAttempts,
      next_attempt_at: state.nextAttemptAt,
      lease_owner: null,
      lease_until: null,
      updated_at: state.now,
      delivered_at: state.deliveredAt,
      last_error: state.lastError,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('redeliveries', '=', redeliveries)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertAttempt(db: Db, attempt: AttemptRow): Promise<void> {
  await db.insertInto('outbox_attempts').values(attempt).execute();
}

/** Gives a row back without an attempt (the dispatcher stopped mid-delivery): another instance or restart sends it. */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db.updateTable('outbox_notifications').set({ lease_owner: null, lease_until: null }).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/**
 * Staff redelivery: due now, a new round of the schedule; id, body and earlier attempts are kept. It leaves a lease
 * alone but counts itself in `redeliveries`, so an attempt in flight cannot overwrite it when it is recorded
 * (docs/notifications.md#redelivery-during-an-attempt).
 */
export async function markForRedelivery(db: Db, id: string, { now, traceParent }: AskedNow): Promise<OutboxRow | undefined> {
  return db
    .updateTable('outbox_notifications')
    .set((eb) => ({ status: 'PENDING', next_attempt_at: now, round_attempts: 0, updated_at: now, redeliveries: eb('redeliveries', '+', 1), redelivery_trace_parent: traceParent }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The ids of the `limit` notifications changed last at or after `since` (an attempt, a redelivery), oldest first. */
export async function notificationsChangedSince(db: Db, since: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('outbox_notifications').select('id').where('updated_at', '>=', since).orderBy('updated_at', 'desc').limit(limit).execute();
  return rows.map((row) => row.id).reverse();
}

export async function findNotification(db: Db, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox_notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The path and body of these messages, in one query: a batch the endpoints' dispatcher claimed (delivery-job.ts). */
export async function notificationBodies(db: Db, ids: readonly string[]): Promise<Array<Pick<OutboxRow, 'id' | 'path' | 'body' | 'trace_parent'>>> {
  if (ids.length === 0) return [];
  return db.selectFrom('outbox_notifications').select(['id', 'path', 'body', 'trace_parent']).where('id', 'in', ids).execute();
}

export interface NotificationFilter {
  statuses?: readonly OutboxStatus[];
  paths?: readonly string[];
}

/** One page, oldest first, after the (created_at, id) position `after`. */
export async function listNotifications(
  db: Db,
  filter: NotificationFilter & { after?: { createdAt: number; id: string }; limit: number },
): Promise<OutboxRow[]> {
  let query = db.selectFrom('outbox_notifications').selectAll();
  if (filter.statuses?.length) query = query.where('status', 'in', filter.statuses);
  if (filter.paths?.length) query = query.where('path', 'in', filter.paths);
  const after = filter.after;
  if (after) {
    query = query.where((w) =>
      w.or([w('created_at', '>', after.createdAt), w.and([w('created_at', '=', after.createdAt), w('id', '>', after.id)])]),
    );
  }
  return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(filter.limit).execute();
}

export async function countNotifications(db: Db, filter: NotificationFilter): Promise<number> {
  let query = db.selectFrom('outbox_notifications').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.statuses?.length) query = query.where('status', 'in', filter.statuses);
  if (filter.paths?.length) query = query.where('path', 'in', filter.paths);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Every attempt of these notifications, in order (one query for a whole page). */
export async function attemptsOf(db: Db, ids: readonly string[]): Promise<AttemptRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('outbox_attempts').selectAll().where('notification_id', 'in', ids).orderBy('notification_id').orderBy('attempt').execute();
}

/** Bodies of these paths not yet sealed (rows queued before issue 14; docs/notifications.md#secrets-in-the-outbox). */
export async function unsealedBodies(db: Db, paths: readonly string[], sealedPrefix: string, limit: number): Promise<Array<Pick<OutboxRow, 'id' | 'path' | 'body' | 'subject'>>> {
  if (paths.length === 0) return [];
  return db
    .selectFrom('outbox_notifications')
    .select(['id', 'path', 'body', 'subject'])
    .where('path', 'in', paths)
    .where('body', 'not like', `${sealedPrefix}%`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Replaces a body (and subject) only if it is still `from`: another instance sealing the same row wins once. */
export async function replaceBody(db: Db, id: string, from: string, to: { body: string; subject?: string | null }): Promise<boolean> {
  const result = await db.updateTable('outbox_notifications').set(to).where('id', '=', id).where('body', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Sealed bodies (`sealedPrefix`) not sealed under the current vault key (`currentPrefix`), in id order after `after`,
 * whatever their status (a failed one may be redelivered): one batch of a VAULT_KEY rotation (scripts/vault-rotate.ts).
 */
export async function bodiesToReseal(db: Db, sealedPrefix: string, currentPrefix: string, after: string, limit: number): Promise<Array<Pick<OutboxRow, 'id' | 'body'>>> {
  return db
    .selectFrom('outbox_notifications')
    .select(['id', 'body'])
    .where('id', '>', after)
    .where('body', 'like', `${sealedPrefix}%`)
    .where('body', 'not like', `${currentPrefix}%`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function countBodiesToReseal(db: Db, sealedPrefix: string, currentPrefix: string): Promise<number> {
  const row = await db
    .selectFrom('outbox_notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('body', 'like', `${sealedPrefix}%`)
    .where('body', 'not like', `${currentPrefix}%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The outbox's backlog now: PENDING and FAILED rows, and when the oldest PENDING one was queued (null when none
 * is): the outbox gauges, read at scrape (docs/operations.md#metrics).
 */
export async function outboxBacklog(db: Db): Promise<{ pending: number; failed: number; oldestPendingAt: number | null }> {
  const rows = await db
    .selectFrom('outbox_notifications')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min<number>('created_at').as('oldest')])
    .where('status', 'in', ['PENDING', 'FAILED'])
    .groupBy('status')
    .execute();
  const pending = rows.find((row) => row.status === 'PENDING');
  const failed = rows.find((row) => row.status === 'FAILED');
  return { pending: Number(pending?.n ?? 0), failed: Number(failed?.n ?? 0), oldestPendingAt: pending?.oldest == null ? null : Number(pending.oldest) };
}
