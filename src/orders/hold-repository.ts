/**
 * Kysely queries for the end of a hold (docs/ordering.md#a-payment-at-the-end-of-the-hold): a payment in flight that
 * keeps it, and the cancel when it is due. Rows in, rows out; `db` may be a transaction. Each change is one
 * conditional update, so a pay, the sweep and every instance decide on the row itself.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { PAYMENT_SETTLE_MS } from './order.ts';
import type { OrderRow } from './order-tables.ts';

/**
 * A card or wallet payment starts for a held order whose hold has not ended (docs/ordering.md#a-payment-at-the-end-of-the-hold).
 * False when the hold has ended or the order is no longer held: no payment may start. Not a change anyone sees (no
 * version), only what keeps the hold sweep off the order while the payment settles.
 */
export async function startPaying(db: Db, orderNumber: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ paying_since: now })
    .where('order_number', '=', orderNumber)
    .where('status', '=', 'awaiting payment')
    .where('hold_until', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The payment in flight ended without paying (declined, failed): the hold ends when it would have. */
export async function stopPaying(db: Db, orderNumber: number): Promise<void> {
  await db.updateTable('orders').set({ paying_since: null }).where('order_number', '=', orderNumber).where('status', '=', 'awaiting payment').execute();
}

/**
 * Cancels every held order that is due (order.ts cancelDueAt: its hold has ended and no payment started before that
 * end is still settling), all of them or the one given, and frees its email. Conditional, so an order is cancelled
 * once however many sweepers race, and never under a payment that may still pay it.
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
    .where('hold_until', '<=', now)
    .where((eb) => eb.or([eb('paying_since', 'is', null), eb('paying_since', '<=', now - PAYMENT_SETTLE_MS)]));
  if (orderNumber !== undefined) query = query.where('order_number', '=', orderNumber);
  return query.returningAll().execute();
}

/** The earliest moment a held order is due to be cancelled (cancelDueAt), for the expiry timer. */
export async function nextHoldEnd(db: Db): Promise<number | null> {
  // paying_since + settle > hold_until is NULL without a payment in flight: the hold's end.
  const row = await db
    .selectFrom('orders')
    .select(sql<number | string | null>`min(case when paying_since + ${PAYMENT_SETTLE_MS} > hold_until then paying_since + ${PAYMENT_SETTLE_MS} else hold_until end)`.as('due'))
    .where('status', '=', 'awaiting payment')
    .executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}
