/**
 * The network tokens still in the clear (`vault_tokens.network_token`: stored before migration 0011, or by an
 * instance older than it during a rolling upgrade) found by an index of those rows alone, so the gateway can look for
 * them on every sweep of its network-token job and seal them (docs/platform.md#upgrade-and-network-tokens) without a
 * scan of every card token. Empty once they are sealed. Never edit once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Raw: a partial index, the same text on SQLite and PostgreSQL.
  await sql`create index vault_tokens_clear_network_token on vault_tokens (token_hash)
    where network_token is not null`.execute(db);
}
