/** Kysely queries for orders and their pay tokens. Rows in, rows out; `db` may be a transaction. */
import type { Db } from './database.ts';
import type { NewOrderRow, OrderRow } from './tables.ts';

/** Hands out the next order number; runs inside the creating transaction, so the row lock serializes it. */
export async function nextOrderNumber(db: Db): Promise<number> {
  const row = await db
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'order_number')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function insertOrder(db: Db, row: NewOrderRow): Promise<void> {
  await db.insertInto('orders').values(row).execute();
}

export async function insertPayToken(db: Db, orderNumber: number, tokenHash: string, now: number): Promise<void> {
  await db.insertInto('order_pay_tokens').values({ token_hash: tokenHash, order_number: orderNumber, created_at: now }).execute();
}

export async function findOrder(db: Db, orderNumber: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

export async function findOrderByEmailKey(db: Db, emailKey: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

export async function payTokenHashes(db: Db, orderNumber: number): Promise<string[]> {
  const rows = await db.selectFrom('order_pay_tokens').select('token_hash').where('order_number', '=', orderNumber).execute();
  return rows.map((r) => r.token_hash);
}

/**
 * Marks a held order paid, only if it is still held and its hold has not ended: the conditional update is what
 * makes concurrent pays charge once. Returns the updated row, or undefined when another path won.
 */
export async function markPaid(
  db: Db,
  orderNumber: number,
  change: { status: string; method: string; now: number },
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set((eb) => ({
      status: change.status,
      paid_at: change.now,
      payment_method: change.method,
      updated_at: change.now,
      version: eb('version', '+', 1),
    }))
    .where('order_number', '=', orderNumber)
    .where('status', '=', 'awaiting payment')
    .where('hold_until', '>', change.now)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Cancels every held order whose hold has ended (all of them, or the one given) and frees its email.
 * Conditional, so an order is cancelled once however many sweepers race.
 */
export async function expireHolds(
  db: Db,
  now: number,
  reason: string,
  orderNumber?: number,
): Promise<OrderRow[]> {
  let query = db
    .updateTable('orders')
    .set((eb) => ({
      status: 'cancelled',
      cancel_reason: reason,
      cancelled_at: eb.ref('hold_until'),
      email_key: null,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('status', '=', 'awaiting payment')
    .where('hold_until', '<=', now);
  if (orderNumber !== undefined) query = query.where('order_number', '=', orderNumber);
  return query.returningAll().execute();
}

/** The earliest hold still running, for the expiry timer. */
export async function nextHoldEnd(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.min('hold_until').as('due'))
    .where('status', '=', 'awaiting payment')
    .executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}

export async function insertOrderPayment(
  db: Db,
  row: { id: string; orderNumber: number; method: string; amountCents: number; now: number },
): Promise<void> {
  await db
    .insertInto('order_payments')
    .values({
      id: row.id,
      order_number: row.orderNumber,
      method: row.method,
      amount_cents: row.amountCents,
      currency: 'USD',
      status: 'succeeded',
      created_at: row.now,
    })
    .execute();
}

export async function countOrderPayments(db: Db, orderNumber: number): Promise<number> {
  const row = await db
    .selectFrom('order_payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
