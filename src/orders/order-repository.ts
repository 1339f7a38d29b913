/**
 * Kysely queries for orders and their pay tokens. Rows in, rows out; `db` may be a transaction. `rowToOrder` is the
 * one place that knows the column names of an order.
 */
import type { Db } from '../db/database.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Order, OrderStatus, PayMethod } from './order.ts';
import type { NewOrderRow, OrderRow, PayTokenOrigin } from './order-tables.ts';

export function rowToOrder(row: OrderRow): Order {
  return {
    orderNumber: String(row.order_number),
    name: row.name,
    email: row.email,
    choice: { size: row.size, font: row.font, thread: row.thread, stitchText: row.stitch_text },
    status: row.status as OrderStatus,
    createdAt: Number(row.created_at),
    holdUntil: Number(row.hold_until),
    paidAt: row.paid_at == null ? null : Number(row.paid_at),
    paymentMethod: (row.payment_method as PayMethod | null) ?? null,
    cancelledAt: row.cancelled_at == null ? null : Number(row.cancelled_at),
    cancelReason: row.cancel_reason,
    readyAt: row.ready_at == null ? null : Number(row.ready_at),
    collectedAt: row.collected_at == null ? null : Number(row.collected_at),
    collectedBy: row.collected_by ?? null,
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
  };
}

/** Hands out the next order number: one conditional increment of the counter row (its lock serializes callers). */
export async function nextOrderNumber(db: Db): Promise<number> {
  const { rows } = await nextNumberQuery(db, {});
  if (!rows[0]) throw new Error('no order_number counter');
  return Number(rows[0].value);
}

// The create and pay path's queries are compiled once (src/db/compiled-once.ts: no value changes their shape).
const nextNumberQuery = compiledOnce((db: Db, _: Record<string, never>) =>
  db.updateTable('counters').set((eb) => ({ value: eb('value', '+', 1) })).where('name', '=', 'order_number').returning('value'),
);

/** Inserts the order and returns the stored row (with the database's defaults) in the same round trip. */
export async function insertOrder(db: Db, row: NewOrderRow): Promise<OrderRow> {
  const { rows } = await insertOrderQuery(db, row);
  if (!rows[0]) throw new Error('order not inserted');
  return rows[0];
}

const insertOrderQuery = compiledOnce((db: Db, row: NewOrderRow) => db.insertInto('orders').values(row).returningAll());

export async function insertPayToken(db: Db, orderNumber: number, tokenHash: string, now: number, origin: PayTokenOrigin): Promise<void> {
  await insertPayTokenQuery(db, { token_hash: tokenHash, order_number: orderNumber, created_at: now, origin });
}

const insertPayTokenQuery = compiledOnce((db: Db, row: { token_hash: string; order_number: number; created_at: number; origin: PayTokenOrigin }) =>
  db.insertInto('order_pay_tokens').values(row),
);

/**
 * Takes the order's row lock until the transaction ends (PostgreSQL only: SQLite's one connection already runs
 * transactions one at a time), so the token issues of one order take turns and each rotation sees the one before.
 */
export async function lockOrder(db: Db, orderNumber: number): Promise<void> {
  await db.selectFrom('orders').select('order_number').where('order_number', '=', orderNumber).forUpdate().execute();
}

/**
 * Deletes the order's duplicate tokens except `keep` (the one just issued) and the `others` newest besides it
 * (docs/ordering.md#pay-tokens-on-a-duplicate). The create's token is never deleted. One statement, one shape.
 */
export async function rotateDuplicateTokens(db: Db, orderNumber: number, keep: string, others: number): Promise<void> {
  await db
    .deleteFrom('order_pay_tokens')
    .where('order_number', '=', orderNumber)
    .where('origin', '=', 'duplicate')
    .where('token_hash', '<>', keep)
    .where('token_hash', 'not in', (eb) =>
      eb
        .selectFrom('order_pay_tokens')
        .select('token_hash')
        .where('order_number', '=', orderNumber)
        .where('origin', '=', 'duplicate')
        .where('token_hash', '<>', keep)
        .orderBy('created_at', 'desc')
        .orderBy('token_hash', 'desc')
        .limit(others),
    )
    .execute();
}

export async function findOrder(db: Db, orderNumber: number): Promise<OrderRow | undefined> {
  return (await findOrderQuery(db, { orderNumber })).rows[0];
}

const findOrderQuery = compiledOnce((db: Db, v: { orderNumber: number }) => db.selectFrom('orders').selectAll().where('order_number', '=', v.orderNumber));

export async function findOrderByEmailKey(db: Db, emailKey: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

export async function payTokenHashes(db: Db, orderNumber: number): Promise<string[]> {
  const { rows } = await payTokenHashesQuery(db, { orderNumber });
  return rows.map((r) => r.token_hash);
}

const payTokenHashesQuery = compiledOnce((db: Db, v: { orderNumber: number }) =>
  db.selectFrom('order_pay_tokens').select('token_hash').where('order_number', '=', v.orderNumber),
);

/**
 * Marks a held order paid by a payment that started while it was held (`startedAt` before the hold's end; the demo
 * card starts and ends now), only if it is still held: the conditional update is what makes concurrent pays charge
 * once, and a hold sweep that cancelled the order first wins. Returns the updated row, or undefined when another
 * path won.
 */
export async function markPaid(
  db: Db,
  orderNumber: number,
  change: { status: string; method: string; startedAt: number; now: number },
): Promise<OrderRow | undefined> {
  return (await markPaidQuery(db, { orderNumber, ...change })).rows[0];
}

const markPaidQuery = compiledOnce((db: Db, v: { orderNumber: number; status: string; method: string; startedAt: number; now: number }) =>
  db
    .updateTable('orders')
    .set((eb) => ({ status: v.status, paid_at: v.now, payment_method: v.method, paying_since: null, updated_at: v.now, version: eb('version', '+', 1) }))
    .where('order_number', '=', v.orderNumber)
    .where('status', '=', 'awaiting payment')
    .where('hold_until', '>', v.startedAt)
    .returningAll(),
);

export async function insertOrderPayment(
  db: Db,
  row: { id: string; orderNumber: number; method: string; amountCents: number; now: number },
): Promise<void> {
  await insertOrderPaymentQuery(db, row);
}

const insertOrderPaymentQuery = compiledOnce((db: Db, row: { id: string; orderNumber: number; method: string; amountCents: number; now: number }) =>
  db
    .insertInto('order_payments')
    .values({ id: row.id, order_number: row.orderNumber, method: row.method, amount_cents: row.amountCents, currency: 'USD', status: 'succeeded', created_at: row.now }),
);

export async function countOrderPayments(db: Db, orderNumber: number): Promise<number> {
  const row = await db
    .selectFrom('order_payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Staff fulfilment (docs/ordering.md#moving-an-order-forward): each change is one conditional update, so two staff members acting on one order
 * at once change it once. Each returns the updated row, or undefined when the order was not in an allowed status.
 */
export async function advanceStatus(
  db: Db,
  orderNumber: number,
  change: { to: string; from: readonly string[]; now: number },
): Promise<OrderRow | undefined> {
  if (change.from.length === 0) return undefined;
  return db
    .updateTable('orders')
    .set((eb) => ({
      status: change.to,
      updated_at: change.now,
      version: eb('version', '+', 1),
      ...(change.to === 'ready' ? { ready_at: change.now } : {}),
    }))
    .where('order_number', '=', orderNumber)
    .where('status', 'in', change.from)
    .returningAll()
    .executeTakeFirst();
}

/** Collects a ready order; `name` is the order's name the collector was matched against (it never changes). */
export async function markCollected(
  db: Db,
  orderNumber: number,
  change: { name: string; collectedBy: string; now: number },
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set((eb) => ({
      status: 'collected',
      collected_at: change.now,
      collected_by: change.collectedBy,
      updated_at: change.now,
      version: eb('version', '+', 1),
    }))
    .where('order_number', '=', orderNumber)
    .where('status', '=', 'ready')
    .where('name', '=', change.name)
    .returningAll()
    .executeTakeFirst();
}

/** Cancels an order that is neither collected nor cancelled, and frees its email (docs/ordering.md#cancelling-an-order). */
export async function cancelByStaff(
  db: Db,
  orderNumber: number,
  change: { reason: string; now: number },
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set((eb) => ({
      status: 'cancelled',
      cancel_reason: change.reason,
      cancelled_at: change.now,
      email_key: null,
      updated_at: change.now,
      version: eb('version', '+', 1),
    }))
    .where('order_number', '=', orderNumber)
    .where('status', 'not in', ['collected', 'cancelled'])
    .returningAll()
    .executeTakeFirst();
}

export interface OrderListFilter {
  /** Only these statuses; undefined or empty: every status. */
  statuses?: readonly string[];
}

/** One page of orders by order number ascending, after `afterNumber`, changed at `changedSince` or later; `limit` rows at most. */
export async function listOrders(
  db: Db,
  filter: OrderListFilter & { afterNumber?: number; changedSince?: number; limit: number },
): Promise<OrderRow[]> {
  let query = db.selectFrom('orders').selectAll();
  if (filter.statuses && filter.statuses.length > 0) query = query.where('status', 'in', filter.statuses);
  if (filter.afterNumber !== undefined) query = query.where('order_number', '>', filter.afterNumber);
  if (filter.changedSince !== undefined) query = query.where('updated_at', '>=', filter.changedSince);
  return query.orderBy('order_number', 'asc').limit(filter.limit).execute();
}

export async function countOrders(db: Db, filter: OrderListFilter): Promise<number> {
  let query = db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.statuses && filter.statuses.length > 0) query = query.where('status', 'in', filter.statuses);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The pickup board: ready orders, longest waiting first. Only what the board may show is selected. */
export async function readyOrders(db: Db): Promise<Array<Pick<OrderRow, 'order_number' | 'name' | 'ready_at' | 'updated_at'>>> {
  return db
    .selectFrom('orders')
    .select(['order_number', 'name', 'ready_at', 'updated_at'])
    .where('status', '=', 'ready')
    .orderBy('ready_at', 'asc')
    .orderBy('order_number', 'asc')
    .execute();
}

/** How many orders are in each status now (statuses with none are absent): the `sleeve_orders` gauge, read at scrape. */
export async function countOrdersByStatus(db: Db): Promise<Array<{ status: OrderStatus; count: number }>> {
  const rows = await db.selectFrom('orders').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  return rows.map((row) => ({ status: row.status as OrderStatus, count: Number(row.n) }));
}
