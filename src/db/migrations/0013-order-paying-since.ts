/**
 * `orders.paying_since` (docs/ordering.md#a-payment-at-the-end-of-the-hold): when the card or wallet payment now in
 * flight for a held order started, NULL when none is. A payment started before the hold ends pays the order even
 * when the processor answers after it; the hold sweep leaves such an order alone until that payment has had its time
 * to settle. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('paying_since', 'bigint').execute();
}
