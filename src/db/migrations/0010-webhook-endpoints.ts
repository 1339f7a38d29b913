/**
 * Merchant webhooks (issue 19, docs/merchant-webhooks.md): every notification records its site, and every site
 * operates endpoints of its own, each with a delivery per message. Notifications queued before this belonged to the
 * one MERCHANT_ENDPOINT, the bootstrap site's: they are given that site. Never edit once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_notifications').addColumn('site_id', 'varchar(64)').execute();
  await sql`update outbox_notifications set site_id = (select s.site_id from sites s where s.kind = 'bootstrap' order by s.created_at limit 1)`.execute(db);

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('disabled_reason', 'varchar(500)')
    .addColumn('failing_since', 'bigint')
    .addColumn('throttled_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_site').on('webhook_endpoints').columns(['site_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('round_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Counted up each time the delivery is made due again (redeliver, recover, enabled): an attempt in flight then
    // records itself without overwriting that (as outbox_notifications.redeliveries does, migration 0009).
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('last_error', 'varchar(500)')
    .execute();
  // The fair claim reads one endpoint's due deliveries at a time: (endpoint, status, due).
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['endpoint_id', 'status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_list').on('webhook_deliveries').columns(['endpoint_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_message').on('webhook_deliveries').columns(['message_id']).execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('delivery_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_excerpt', 'varchar(1000)')
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('webhook_delivery_attempts_delivery').on('webhook_delivery_attempts').columns(['delivery_id', 'attempt']).execute();
}
