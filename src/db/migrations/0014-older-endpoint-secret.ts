/**
 * `webhook_endpoints.older_secret_sealed` and `older_secret_until` (docs/merchant-webhooks.md#secret-rotation): the
 * secret before the previous one, still signing until 24 hours after it was replaced. A second rotation inside a
 * first one's 24 hours ended the first one's overlap at once, so the secret still in production stopped verifying
 * (a merchant who lost the secret shown once, and rotated again, lost every notification). Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('older_secret_sealed', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('older_secret_until', 'bigint').execute();
}
