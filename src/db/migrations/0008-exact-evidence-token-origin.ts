/**
 * Issue 14's two schema changes. Never edit once shipped.
 *
 * - `claim_evidence.content`: an evidence file's exact bytes (docs/notifications.md#evidence-files). A byte column
 *   is spelled differently by the two databases: BLOB on SQLite, bytea on PostgreSQL (which has no BLOB). Files
 *   stored before this migration have no content (they were kept as size and SHA-256 only).
 * - `order_pay_tokens.origin`: `create` for the token answered by the create, `duplicate` for one answered with a
 *   duplicate; only duplicate tokens are rotated out (docs/ordering.md#pay-tokens-on-a-duplicate). Existing tokens
 *   issued after their order was created were duplicate ones.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.alterTable('claim_evidence').addColumn('content', bytes).execute();

  await db.schema
    .alterTable('order_pay_tokens')
    .addColumn('origin', 'varchar(16)', (c) => c.notNull().defaultTo('create'))
    .execute();
  await sql`update order_pay_tokens set origin = 'duplicate'
    where created_at > (select o.created_at from orders o where o.order_number = order_pay_tokens.order_number)`.execute(db);
}
