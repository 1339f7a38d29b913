/**
 * Who asked for a delivery out of turn (docs/operations.md#tracing): `webhook_deliveries.trace_parent`, the W3C
 * `traceparent` of the request that made a merchant's delivery due now (a test event, a redeliver, a recover, an
 * endpoint enabled again), and `outbox_notifications.redelivery_trace_parent`, that of the staff redeliver of a
 * notification to MERCHANT_ENDPOINT. NULL when tracing was off or nobody asked: the attempts then go under the
 * notification's own `trace_parent` (0016). Set, the attempts go under the request that asked, linked to the
 * notification's own trace. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 55 characters: version, trace id, span id and flags (W3C Trace Context, version 00), as in 0016.
  await db.schema.alterTable('webhook_deliveries').addColumn('trace_parent', 'varchar(55)').execute();
  await db.schema.alterTable('outbox_notifications').addColumn('redelivery_trace_parent', 'varchar(55)').execute();
}
