/**
 * Platform sites (document 3 credentials) and the notification outbox (document 2, docs/notifications.md#the-outbox).
 * Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('site_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('api_key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('parent_site_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox_notifications')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('path', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(128)')
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Attempts in the current round of NOTIFY_RETRY_SCHEDULE; a staff redelivery starts a new round at 0.
    .addColumn('round_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('last_error', 'varchar(500)')
    .execute();
  // The dispatcher's claim: "status = PENDING and next_attempt_at <= now", earliest first.
  await db.schema.createIndex('outbox_due').on('outbox_notifications').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('outbox_created').on('outbox_notifications').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('outbox_attempts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('notification_id', 'varchar(64)', (c) => c.notNull().references('outbox_notifications.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_excerpt', 'varchar(1000)')
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('outbox_attempts_notification').on('outbox_attempts').columns(['notification_id', 'attempt']).execute();
}
