/**
 * `outbox_notifications.redeliveries` (issue 14, docs/notifications.md#redelivery-during-an-attempt): how many times
 * staff asked to redeliver the notification. The dispatcher reads it when it leases a row, and the record of its
 * attempt compares it inside the transaction: a redelivery asked for while the attempt was in flight changed it, so
 * the attempt is recorded without overwriting the redelivery. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('outbox_notifications')
    .addColumn('redeliveries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
