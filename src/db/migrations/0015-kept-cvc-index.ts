/**
 * The card tokens still holding a CVC (`vault_tokens.cvc_sealed`), by when each was made: the CVC job erases every
 * CVC kept unused past its time (docs/platform.md#card-data-at-rest) and finds them, and the next one due, through
 * this index of those rows alone, without a scan of every card token. Never edit once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Raw: a partial index, the same text on SQLite and PostgreSQL.
  await sql`create index vault_tokens_kept_cvc on vault_tokens (created_at)
    where cvc_sealed is not null`.execute(db);
}
