/**
 * Staff fulfilment (docs/ordering.md#moving-an-order-forward): when an order became ready (the pickup board's order), when it was collected and
 * by whom (the name as the collector gave it). Staff cancellations reuse cancel_reason and cancelled_at.
 * SQLite adds one column per ALTER TABLE. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('ready_at', 'bigint').execute();
  await db.schema.alterTable('orders').addColumn('collected_at', 'bigint').execute();
  await db.schema.alterTable('orders').addColumn('collected_by', 'varchar(80)').execute();
  // The pickup board ("status = ready order by ready_at") and the staff list's status filter.
  await db.schema.createIndex('orders_status_ready_at').on('orders').columns(['status', 'ready_at']).execute();
}
