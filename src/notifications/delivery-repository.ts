/**
 * Kysely queries for deliveries to merchant webhook endpoints (migration 0010, docs/merchant-webhooks.md#isolation):
 * one row per message and endpoint, each with its own status, schedule and lease, and the attempts of each. The
 * dispatcher claims one endpoint's due rows at a time (delivery-job.ts), so no endpoint's backlog is in another's way.
 */
import { sql, type Insertable } from 'kysely';
import { compiledOnce, compiledPerCount } from '../db/compiled-once.ts';
import type { Db } from '../db/database.ts';
import type { DeliveryAttemptRow, DeliveryRow, DeliveryStatus, WebhookDeliveryTable } from './endpoint-tables.ts';
import type { AskedNow, RowState } from './outbox-repository.ts';

export type { DeliveryAttemptRow, DeliveryRow } from './endpoint-tables.ts';

export async function insertDeliveries(db: Db, rows: Array<Insertable<WebhookDeliveryTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

/**
 * Leases up to `limit` due deliveries of one endpoint to `owner`, earliest first, by a conditional update (its
 * conditions repeat the due ones, so a row another process leased meanwhile is left alone). A leased row is due again
 * when its lease runs out (`next_attempt_at` moves there), so the next due time of an endpoint is one index lookup
 * (nextDueOf).
 *
 * PostgreSQL: one statement, `for update skip locked`, so instances never wait on each other. SQLite: the due rows are
 * read, then leased by an update without `returning`, both in the caller's transaction (SQLite's write lock is taken
 * at its start, so nobody leases them in between; the dispatcher's commits without waiting for the disk,
 * db/asynchronous-commit.ts): `returning *` cost about 5 µs a row there, more than the update itself
 * (a claim of 16 rows took 130 µs against 40; the dispatcher claims thousands a second, bench/webhooks.ts).
 */
export async function claimDueOf(db: Db, endpointId: string, request: { owner: string; now: number; leaseMs: number; limit: number; skipLocked: boolean }): Promise<DeliveryRow[]> {
  const { owner, now, leaseMs, limit, skipLocked } = request;
  if (!skipLocked && !db.isTransaction) throw new Error('claimDueOf: on SQLite the claim runs in the caller\'s transaction');
  const lease = { lease_owner: owner, lease_until: now + leaseMs, next_attempt_at: now + leaseMs };
  const claim = db.updateTable('webhook_deliveries').set(lease).where('status', '=', 'PENDING').where('next_attempt_at', '<=', now);
  if (skipLocked) {
    // PostgreSQL may run an `in (… limit n for update skip locked)` subquery more than once inside its join, and so
    // lease more than n rows (the per-endpoint limit broken, seen in test/webhooks/isolation.test.ts); an array of
    // the subquery is computed once.
    const due = dueOf(db, { endpointId, now, limit }).select('id').forUpdate().skipLocked();
    return claim.where('id', '=', sql<string>`any(array(${due}))`).returningAll().execute();
  }
  const rows = (await dueQuery(db, { endpointId, now, limit })).rows;
  if (rows.length > 0) await claim.where('id', 'in', rows.map((row) => row.id)).execute();
  return rows.map((row) => ({ ...row, ...lease }));
}

/** claimDueOf's read on SQLite, run thousands of times a second: compiled once (db/compiled-once.ts). */
const dueQuery = compiledOnce((db: Db, v: { endpointId: string; now: number; limit: number }) => dueOf(db, v).selectAll());

/** The endpoint's due deliveries, earliest first (what of them to read is the caller's). */
function dueOf(db: Db, v: { endpointId: string; now: number; limit: number }) {
  return db
    .selectFrom('webhook_deliveries')
    .where('endpoint_id', '=', v.endpointId)
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', v.now)
    .orderBy('next_attempt_at', 'asc')
    .limit(v.limit);
}

/** When the endpoint's earliest PENDING delivery is due (a leased one: when its lease runs out); null when none is. */
export async function nextDueOf(db: Db, endpointId: string): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

/** The row as its lease holder sees it (locked on PostgreSQL); undefined when the lease was lost. */
export async function findLeasedDelivery(db: Db, id: string, owner: string, lock: boolean): Promise<DeliveryRow | undefined> {
  const query = db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('lease_owner', '=', owner);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** A delivery's new state after an attempt, field for field an outbox row's. */
export type DeliveryState = RowState;

/** Written once per attempt (thousands a second to one endpoint): built and compiled once (db/compiled-once.ts). */
const updateLeasedQuery = compiledOnce((db: Db, v: { [K in keyof DeliveryState]: DeliveryState[K] } & { id: string; owner: string; version: number }) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      status: v.status,
      attempt_count: v.attemptCount,
      round_attempts: v.roundAttempts,
      next_attempt_at: v.nextAttemptAt,
      lease_owner: null,
      lease_until: null,
      updated_at: v.now,
      delivered_at: v.deliveredAt,
      last_error: v.lastError,
    })
    .where('id', '=', v.id)
    .where('lease_owner', '=', v.owner)
    .where('version', '=', v.version),
);

/** Writes the new state and frees the lease, only while `owner` still holds it and nobody made it due again since. */
export async function updateLeasedDelivery(db: Db, id: string, owner: string, version: number, state: DeliveryState): Promise<boolean> {
  const { status, nextAttemptAt, roundAttempts, attemptCount, deliveredAt, lastError, now } = state;
  const result = await updateLeasedQuery(db, { status, nextAttemptAt, roundAttempts, attemptCount, deliveredAt, lastError, now, id, owner, version });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const ATTEMPT_COLUMNS = ['id', 'delivery_id', 'attempt', 'started_at', 'duration_ms', 'status_code', 'response_excerpt', 'error'] as const;

/** A batch's attempts (about a batch a millisecond at full speed): compiled once per number of rows. */
const insertAttemptsQuery = compiledPerCount<DeliveryAttemptRow, unknown>(ATTEMPT_COLUMNS, (db, attempts) => db.insertInto('webhook_delivery_attempts').values(attempts));

/** The attempts of a batch in one statement. */
export async function insertDeliveryAttempts(db: Db, attempts: DeliveryAttemptRow[]): Promise<void> {
  if (attempts.length > 0) await insertAttemptsQuery(db, attempts);
}

/** Gives a row back unattempted (the dispatcher is stopping): due at once for another instance or the next start. */
export async function releaseDelivery(db: Db, id: string, owner: string, now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_until: null, next_attempt_at: now }).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** The ids of the `limit` deliveries (of one site or endpoint, when given) changed last at or after `since`, oldest first. */
export async function deliveriesChangedSince(db: Db, since: number, filter: { siteId?: string | null; endpointId?: string | null }, limit: number): Promise<string[]> {
  let query = db.selectFrom('webhook_deliveries').select('id').where('updated_at', '>=', since);
  if (filter.siteId) query = query.where('site_id', '=', filter.siteId);
  if (filter.endpointId) query = query.where('endpoint_id', '=', filter.endpointId);
  const rows = await query.orderBy('updated_at', 'desc').limit(limit).execute();
  return rows.map((row) => row.id).reverse();
}

/** `lock`: on PostgreSQL, until the caller's transaction ends (no attempt is recorded on it meanwhile). */
export async function findDelivery(db: Db, id: string, lock = false): Promise<DeliveryRow | undefined> {
  const query = db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** One endpoint's deliveries, newest first, before the (created_at, id) position `before`. */
export async function listDeliveries(db: Db, filter: { endpointId: string; statuses?: readonly DeliveryStatus[]; before?: { createdAt: number; id: string }; limit: number }): Promise<DeliveryRow[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', filter.endpointId);
  if (filter.statuses?.length) query = query.where('status', 'in', filter.statuses);
  const before = filter.before;
  if (before) query = query.where((w) => w.or([w('created_at', '<', before.createdAt), w.and([w('created_at', '=', before.createdAt), w('id', '<', before.id)])]));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function countDeliveries(db: Db, endpointId: string, statuses?: readonly DeliveryStatus[]): Promise<number> {
  let query = db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('endpoint_id', '=', endpointId);
  if (statuses?.length) query = query.where('status', 'in', statuses);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Every attempt of these deliveries, in order (one query for a page). */
export async function attemptsOfDeliveries(db: Db, ids: readonly string[]): Promise<DeliveryAttemptRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('delivery_id').orderBy('attempt').execute();
}

/**
 * Makes deliveries due now in a new round of the schedule: every FAILED one of the endpoint created since `since`
 * (recover), or one delivery (redeliver). `version` counts up, so an attempt in flight cannot overwrite it.
 */
export async function makeDue(db: Db, where: { endpointId: string; since?: number; deliveryId?: string }, { now, traceParent }: AskedNow): Promise<string[]> {
  let query = db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'PENDING', next_attempt_at: now, round_attempts: 0, updated_at: now, version: eb('version', '+', 1), trace_parent: traceParent }))
    .where('endpoint_id', '=', where.endpointId);
  if (where.since !== undefined) query = query.where('status', '=', 'FAILED').where('created_at', '>=', where.since);
  if (where.deliveryId !== undefined) query = query.where('id', '=', where.deliveryId).where('status', '!=', 'PENDING');
  return (await query.returning('id').execute()).map((row) => row.id);
}

/**
 * An endpoint enabled again: its kept PENDING deliveries are due now, not at their schedule's next step. With
 * `deliveryId`, that one only (redeliver of a delivery waiting for its next attempt).
 */
export async function pendingDueNow(db: Db, endpointId: string, { now, traceParent }: AskedNow, deliveryId?: string): Promise<string[]> {
  let query = db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ next_attempt_at: now, updated_at: now, version: eb('version', '+', 1), trace_parent: traceParent }))
    .where('endpoint_id', '=', endpointId);
  if (deliveryId !== undefined) query = query.where('id', '=', deliveryId);
  const rows = await query
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '>', now)
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)])) // not those in flight
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A merchant's redelivery of a delivery whose attempt is in flight: its version counts up, so the attempt's record
 * leaves it PENDING and due then (delivery-attempt-service.ts), whatever the attempt's outcome. Its next_attempt_at
 * (the lease's end) is left alone: moved to now, another dispatcher would claim it while it is being sent.
 */
export async function redeliverInFlight(db: Db, endpointId: string, deliveryId: string, { now, traceParent }: AskedNow): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ updated_at: now, version: eb('version', '+', 1), trace_parent: traceParent }))
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId)
    .where('status', '=', 'PENDING')
    .where('lease_until', '>', now)
    .execute();
}
