/** Document 1: sleeve options, event information, orders with their pay tokens and payments. Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('counters')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  // Order numbers start at 1001 (docs/ordering.md#order-numbers); the counter holds the last one handed out.
  await db.insertInto('counters' as never).values({ name: 'order_number', value: 1000 } as never).execute();

  await db.schema
    .createTable('sleeve_option_sets')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('order_number', 'bigint', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('email_key', 'varchar(254)')
    .addColumn('name', 'varchar(80)', (c) => c.notNull())
    .addColumn('size', 'varchar(80)', (c) => c.notNull())
    .addColumn('font', 'varchar(80)', (c) => c.notNull())
    .addColumn('thread', 'varchar(80)', (c) => c.notNull())
    .addColumn('stitch_text', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('hold_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('payment_method', 'varchar(32)')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('cancel_reason', 'varchar(300)')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // One open order per email, held by the database rather than a read-then-write (document 1 §8).
  await db.schema.createIndex('orders_email_key_unique').on('orders').column('email_key').unique().execute();
  // The hold-expiry sweep: "status = awaiting payment and hold_until <= now".
  await db.schema.createIndex('orders_status_hold_until').on('orders').columns(['status', 'hold_until']).execute();

  await db.schema
    .createTable('order_pay_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('order_number', 'bigint', (c) => c.notNull().references('orders.order_number'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_pay_tokens_order').on('order_pay_tokens').column('order_number').execute();

  await db.schema
    .createTable('order_payments')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('order_number', 'bigint', (c) => c.notNull().references('orders.order_number'))
    .addColumn('method', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_payments_order').on('order_payments').column('order_number').execute();
}
