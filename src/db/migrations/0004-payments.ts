/** Payments, the card vault, tokens and idempotency keys (issue 5; shapes in ../payment-tables.ts). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vault_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('site_id', 'varchar(64)')
    .addColumn('order_number', 'bigint')
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)')
    .addColumn('bin', 'varchar(8)')
    .addColumn('last_four', 'varchar(4)')
    .addColumn('brand', 'varchar(32)')
    .addColumn('exp_month', 'integer')
    .addColumn('exp_year', 'integer')
    .addColumn('cvc_sealed', 'text')
    .addColumn('extra', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('multi_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_by_payment', 'varchar(64)')
    .addColumn('network_token_status', 'varchar(16)', (c) => c.notNull().defaultTo('NONE'))
    .addColumn('network_token_due', 'bigint')
    .addColumn('network_token', 'varchar(64)')
    .addColumn('network_token_par', 'varchar(64)')
    .addColumn('network_token_exp_month', 'integer')
    .addColumn('network_token_exp_year', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Card update finds every token of a card by its keyed hash (docs/platform.md#card-update), per site.
  await db.schema.createIndex('vault_tokens_fingerprint').on('vault_tokens').columns(['site_id', 'fingerprint']).execute();
  // The provisioning sweep: "status = PENDING and due <= now".
  await db.schema.createIndex('vault_tokens_network_due').on('vault_tokens').columns(['network_token_status', 'network_token_due']).execute();

  await db.schema
    .createTable('token_aliases')
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('alias_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('alias_value', 'varchar(200)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().references('vault_tokens.token_hash'))
    .addPrimaryKeyConstraint('token_aliases_pk', ['site_id', 'alias_key', 'alias_value'])
    .execute();
  await db.schema.createIndex('token_aliases_token').on('token_aliases').column('token_hash').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)')
    .addColumn('order_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('order_number', 'bigint')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('decision', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)')
    .addColumn('charge_id', 'varchar(64)')
    .addColumn('refunded_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_order_number').on('payments').columns(['order_number', 'status']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('idem_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('payment_id', 'varchar(64)')
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // The insert-first claim: the second request with one key hits this key and waits for the first's response.
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['site_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('sandbox_charges')
    .addColumn('idem_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('charge_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
