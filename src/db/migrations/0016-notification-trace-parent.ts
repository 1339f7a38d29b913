/**
 * `outbox_notifications.trace_parent` (docs/operations.md#tracing): the W3C `traceparent` of the span that queued the
 * notification (the request whose change caused it), NULL when tracing was off or no request caused it. Every
 * attempt to deliver it, to MERCHANT_ENDPOINT or a merchant's own endpoint, is a span under it, so an operator finds
 * a request's webhooks in its trace. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 55 characters: version, trace id, span id and flags (W3C Trace Context, version 00).
  await db.schema.alterTable('outbox_notifications').addColumn('trace_parent', 'varchar(55)').execute();
}
