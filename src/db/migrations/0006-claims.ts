/** Claims and evidence (issue 7, document 2 §2 and docs/notifications.md#evidence-submission). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Claim ids are int64 (document 2); the counter holds the last one handed out.
  await db.insertInto('counters' as never).values({ name: 'claim_id', value: 1_000_000 } as never).execute();

  await db.schema
    .createTable('claims')
    .addColumn('claim_id', 'bigint', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('order_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('claim_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('reason_code', 'varchar(64)')
    .addColumn('reason_category', 'varchar(40)')
    .addColumn('card_type', 'varchar(40)')
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('processor_name', 'varchar(64)')
    .addColumn('processor_case_number', 'varchar(128)')
    .addColumn('processor_charge_id', 'varchar(128)')
    .addColumn('issue_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('due_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('requested_types', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('next_reminder_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The reminder sweep: open claims whose reminder is due; the expiry sweep: open claims past their due time.
  await db.schema.createIndex('claims_reminder').on('claims').columns(['status', 'next_reminder_at']).execute();
  await db.schema.createIndex('claims_due').on('claims').columns(['status', 'due_at']).execute();

  await db.schema
    .createTable('claim_evidence')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('claim_id', 'bigint', (c) => c.notNull().references('claims.claim_id'))
    .addColumn('evidence_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)')
    .addColumn('content_type', 'varchar(100)')
    .addColumn('size_bytes', 'integer')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('data', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('claim_evidence_claim').on('claim_evidence').columns(['claim_id', 'evidence_type']).execute();
}
