/** Kysely queries for payments and idempotency keys (docs/platform.md#idempotency-keys). Rows in, rows out; `db` may be a transaction. */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { IdempotencyKeyTable, PaymentRow, PaymentTable } from './payment-tables.ts';

export type { PaymentRow };
export type IdempotencyRow = Selectable<IdempotencyKeyTable>;

export async function insertPayment(db: Db, row: Insertable<PaymentTable>): Promise<void> {
  await insertPaymentQuery(db, row);
}

// The POST /api/payments path's queries are compiled once (src/db/compiled-once.ts: no value changes their shape).
const insertPaymentQuery = compiledOnce((db: Db, row: Insertable<PaymentTable>) => db.insertInto('payments').values(row));

export async function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  return (await findPaymentQuery(db, { id })).rows[0];
}

const findPaymentQuery = compiledOnce((db: Db, v: { id: string }) => db.selectFrom('payments').selectAll().where('id', '=', v.id));

export async function updatePayment(db: Db, id: string, change: Updateable<PaymentTable>): Promise<PaymentRow | undefined> {
  return (await updatePaymentQuery(db, { ...change, where_id: id })).rows[0];
}

/**
 * Records a charge's outcome on a payment still `pending` or `unknown`; undefined when another caller recorded its
 * outcome first (a retry or the sweep that claimed it while this caller was stalled): that outcome stands.
 */
export async function recordOutcome(db: Db, id: string, change: Pick<Updateable<PaymentTable>, 'status' | 'charge_id' | 'updated_at'>): Promise<PaymentRow | undefined> {
  return (await recordOutcomeQuery(db, { ...change, where_id: id })).rows[0];
}

const recordOutcomeQuery = compiledOnce((db: Db, v: Pick<Updateable<PaymentTable>, 'status' | 'charge_id' | 'updated_at'> & { where_id: string }) => {
  const { where_id, ...change } = v;
  return db.updateTable('payments').set(change).where('id', '=', where_id).where('status', 'in', ['pending', 'unknown']).returningAll();
});

/** `where_id` is no column: the rest of the keys are the change (its set of keys is the query's shape). */
const updatePaymentQuery = compiledOnce((db: Db, v: Updateable<PaymentTable> & { where_id: string }) => {
  const { where_id, ...change } = v;
  return db.updateTable('payments').set(change).where('id', '=', where_id).returningAll();
});

/**
 * Claims a payment whose outcome is not known for one caller to reconcile: conditional on the status and time seen,
 * so of several retries (on any instance) exactly one gets it back; the others see it `pending` and fresh.
 */
export async function claimPayment(db: Db, seen: PaymentRow, now: number): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ status: 'pending', updated_at: now })
    .where('id', '=', seen.id)
    .where('status', '=', seen.status)
    .where('updated_at', '=', seen.updated_at)
    .returningAll()
    .executeTakeFirst();
}

/** The payments of a sleeve order in these statuses, newest first. */
/** The first key of the order-pay advisory locks ("SlPy"): keeps them apart from any other use of advisory locks. */
const ORDER_PAY_LOCK = 0x536c5079;

/**
 * PostgreSQL: the pays of one order take turns until the transaction ends, so of two first pays on two instances the
 * second sees the first one's pending payment instead of inserting its own (two charges, one refunded). A
 * transaction-level advisory lock, not the order's row: the payments area does not reach into the orders table.
 */
export async function lockOrderPays(db: Db, orderNumber: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ORDER_PAY_LOCK}, ${orderNumber})`.execute(db);
}

/** An order's payments, newest first: those of the given statuses, or every one. */
export async function orderPayments(db: Db, orderNumber: number, statuses?: readonly PaymentRow['status'][]): Promise<PaymentRow[]> {
  const query = db.selectFrom('payments').selectAll().where('order_number', '=', orderNumber);
  return (statuses ? query.where('status', 'in', statuses) : query).orderBy('created_at', 'desc').execute();
}

/** Marks a charged payment refunded once; false when it already was (or never charged). */
export async function markRefunded(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ refunded_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'succeeded')
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The insert-first claim of an Idempotency-Key; the primary key (site, key) refuses a second one. */
export async function insertIdempotencyKey(db: Db, row: Insertable<IdempotencyKeyTable>): Promise<void> {
  await insertKeyQuery(db, row);
}

const insertKeyQuery = compiledOnce((db: Db, row: Insertable<IdempotencyKeyTable>) => db.insertInto('idempotency_keys').values(row));

export async function findIdempotencyKey(db: Db, siteId: string, key: string): Promise<IdempotencyRow | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('site_id', '=', siteId).where('idem_key', '=', key).executeTakeFirst();
}

/** Takes over a key whose holder left it retryable (or died holding it): conditional on the state and time seen. */
export async function reclaimIdempotencyKey(db: Db, seen: IdempotencyRow, now: number): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ state: 'processing', updated_at: now })
    .where('site_id', '=', seen.site_id)
    .where('idem_key', '=', seen.idem_key)
    .where('state', '=', seen.state)
    .where('updated_at', '=', seen.updated_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * In the reserve transaction: the key's claim names its payment. Conditional on the claim still being this caller's
 * (`claimedAt`) and on no payment named yet, so a caller whose key was taken over meanwhile reserves nothing.
 */
export async function bindIdempotencyKey(db: Db, siteId: string, key: string, claimedAt: number, paymentId: string): Promise<boolean> {
  const result = await bindKeyQuery(db, { siteId, key, claimedAt, paymentId });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const bindKeyQuery = compiledOnce((db: Db, v: { siteId: string; key: string; claimedAt: number; paymentId: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ payment_id: v.paymentId })
    .where('site_id', '=', v.siteId)
    .where('idem_key', '=', v.key)
    .where('state', '=', 'processing')
    .where('updated_at', '=', v.claimedAt)
    .where('payment_id', 'is', null),
);

/** Settles the key of a payment reconciled without its caller (the sweep): whatever key named it. */
export async function settleKeyOfPayment(db: Db, paymentId: string, change: Updateable<IdempotencyKeyTable>): Promise<void> {
  await db.updateTable('idempotency_keys').set(change).where('payment_id', '=', paymentId).where('state', '!=', 'done').execute();
}

export async function settleIdempotencyKey(db: Db, siteId: string, key: string, change: Updateable<IdempotencyKeyTable>): Promise<void> {
  await db.updateTable('idempotency_keys').set(change).where('site_id', '=', siteId).where('idem_key', '=', key).execute();
}

/**
 * After a failure: a key that reserved no payment is freed (the request may be sent again as new); one that did is
 * left `retryable`, so the retry reconciles that payment instead of making another.
 */
export async function releaseIdempotencyKey(db: Db, siteId: string, key: string, claimedAt: number, now: number): Promise<void> {
  // Only the caller's own claim: a key taken over meanwhile belongs to its new holder.
  const held = db
    .deleteFrom('idempotency_keys')
    .where('site_id', '=', siteId)
    .where('idem_key', '=', key)
    .where('state', '=', 'processing')
    .where('updated_at', '=', claimedAt);
  await held.where('payment_id', 'is', null).execute();
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'retryable', updated_at: now })
    .where('site_id', '=', siteId)
    .where('idem_key', '=', key)
    .where('state', '=', 'processing')
    .where('updated_at', '=', claimedAt)
    .execute();
}

/** Keys live at least 24 hours (issue 5); older ones may go. */
export async function pruneIdempotencyKeys(db: Db, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).where('state', '=', 'done').execute();
}

/**
 * Succeeded, unrefunded charges of sleeve orders that must be given back (document 1: all payments will be
 * refunded): the order was cancelled, or the charge paid no order (it arrived after the order ended or was paid
 * another way; paying an order writes its order_payments row in the charge's own record transaction).
 */
export async function owedRefunds(db: Db, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.order_number', 'payments.order_number')
    .selectAll('payments')
    .where('payments.status', '=', 'succeeded')
    .where('payments.refunded_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('orders.status', '=', 'cancelled'),
        eb.not(eb.exists(eb.selectFrom('order_payments').select('order_payments.id').whereRef('order_payments.id', '=', 'payments.id'))),
      ]),
    )
    .limit(limit)
    .execute();
}

/**
 * Payments whose outcome is not known — `unknown`, or `pending` past `staleBefore` (its caller died between reserve
 * and record) — that no retry is owed to: those of POST /api/payments, and those of sleeve orders
 * that are no longer held (a held order's own retry reconciles its payment). The gateway reconciles them itself.
 */
export async function unsettledPayments(db: Db, staleBefore: number, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .leftJoin('orders', 'orders.order_number', 'payments.order_number')
    .selectAll('payments')
    .where((eb) => eb.or([eb('payments.order_number', 'is', null), eb('orders.status', '!=', 'awaiting payment')]))
    .where((eb) => eb.or([eb('payments.status', '=', 'unknown'), eb.and([eb('payments.status', '=', 'pending'), eb('payments.updated_at', '<', staleBefore)])]))
    .limit(limit)
    .execute();
}
