/** Merchants, 3DS enrollment, accounts and decisions (issue 6). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('owner_site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('merchant_id', 'varchar(50)', (c) => c.notNull())
    .addColumn('name', 'varchar(70)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(70)', (c) => c.notNull())
    .addColumn('mcc', 'varchar(4)', (c) => c.notNull())
    .addColumn('account_creation', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merchants_owner_name').on('merchants').columns(['owner_site_id', 'name_key']).unique().execute();

  await db.schema
    .createTable('three_ds_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('merchant_site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('offerings', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)')
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  // The scheduler's claim: "status = PENDING and due_at <= now".
  await db.schema.createIndex('three_ds_due').on('three_ds_requests').columns(['status', 'due_at']).execute();

  await db.schema
    .createTable('platform_accounts')
    .addColumn('account_id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('recommendations', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('event_time', 'bigint', (c) => c.notNull())
    .addColumn('customer_ip', 'varchar(64)')
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('vendor_decision', 'varchar(32)', (c) => c.notNull())
    .addColumn('reason_codes', 'text', (c) => c.notNull())
    .addColumn('recommendations', 'text', (c) => c.notNull())
    .addColumn('fired_rules', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('review_status', 'varchar(16)')
    .addColumn('reviewed_by', 'varchar(75)')
    .addColumn('review_comments', 'varchar(255)')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A repeated event id replays its decision; the velocity rules count by account and by IP up to eventTime.
  await db.schema.createIndex('account_requests_event').on('account_requests').columns(['site_id', 'kind', 'event_id']).unique().execute();
  await db.schema.createIndex('account_requests_account').on('account_requests').columns(['account_id', 'event_time']).execute();
  await db.schema.createIndex('account_requests_ip').on('account_requests').columns(['customer_ip', 'event_time']).execute();
  await db.schema.createIndex('account_requests_review').on('account_requests').columns(['kind', 'review_status', 'created_at']).execute();

  await db.schema
    .createTable('order_decisions')
    .addColumn('ref', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('order_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('triggered_by', 'varchar(75)', (c) => c.notNull())
    .addColumn('comments', 'varchar(255)')
    .addColumn('decided_at', 'bigint', (c) => c.notNull())
    .execute();
}
