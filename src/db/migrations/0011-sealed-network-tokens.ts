/**
 * `vault_tokens.network_token_sealed` (docs/platform.md#upgrade-and-network-tokens): a provisioned network token is a
 * payment credential that stands in for the card number, so from now on it is sealed under VAULT_KEY like the card
 * data, and `network_token` is written NULL. A row provisioned before keeps its network token in that old column,
 * still read, until `npm run vault:rotate` seals it (docs/operations.md#rotating-vault_key): a migration is given no
 * key, so it cannot seal anything itself. Never edit once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('vault_tokens').addColumn('network_token_sealed', 'text').execute();
}
