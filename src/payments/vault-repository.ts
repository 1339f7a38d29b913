/** Kysely queries for vault tokens and their aliases. Rows in, rows out; `db` may be a transaction. */
import type { ExpressionBuilder, Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { VaultTokenRow, VaultTokenTable } from './payment-tables.ts';

export type { VaultTokenRow };

export async function insertToken(db: Db, row: Insertable<VaultTokenTable>, aliases: Array<[string, string]>): Promise<void> {
  await db.insertInto('vault_tokens').values(row).execute();
  if (aliases.length === 0 || row.site_id == null) return;
  const siteId = row.site_id;
  await db
    .insertInto('token_aliases')
    .values(aliases.map(([key, value]) => ({ site_id: siteId, alias_key: key, alias_value: value, token_hash: row.token_hash })))
    .execute();
}

export async function findToken(db: Db, tokenHash: string): Promise<VaultTokenRow | undefined> {
  return (await findTokenQuery(db, { tokenHash })).rows[0];
}

// Read and written on every payment: compiled once (src/db/compiled-once.ts: no value changes their shape).
const findTokenQuery = compiledOnce((db: Db, v: { tokenHash: string }) => db.selectFrom('vault_tokens').selectAll().where('token_hash', '=', v.tokenHash));

export async function findTokenByAlias(db: Db, siteId: string, key: string, value: string): Promise<VaultTokenRow | undefined> {
  return db
    .selectFrom('token_aliases')
    .innerJoin('vault_tokens', 'vault_tokens.token_hash', 'token_aliases.token_hash')
    .selectAll('vault_tokens')
    .where('token_aliases.site_id', '=', siteId)
    .where('alias_key', '=', key)
    .where('alias_value', '=', value)
    .executeTakeFirst();
}

export async function aliasesOf(db: Db, tokenHash: string): Promise<Array<{ key: string; value: string }>> {
  const rows = await db.selectFrom('token_aliases').select(['alias_key', 'alias_value']).where('token_hash', '=', tokenHash).orderBy('alias_key').execute();
  return rows.map((r) => ({ key: r.alias_key, value: r.alias_value }));
}

const reserveTokenQuery = compiledOnce((db: Db, v: { tokenHash: string; paymentId: string }) =>
  db.updateTable('vault_tokens').set({ used_by_payment: v.paymentId }).where('token_hash', '=', v.tokenHash).where('multi_use', '=', 0).where('used_by_payment', 'is', null),
);

/**
 * Reserves a token for one payment. A multi-use token is never reserved; a single-use one only while free, so two
 * payments racing with one token reserve it once. Returns false when the token is taken (or is not of this scope).
 */
export async function reserveToken(db: Db, tokenHash: string, paymentId: string, multiUse: boolean): Promise<boolean> {
  if (multiUse) return true;
  const result = await reserveTokenQuery(db, { tokenHash, paymentId });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

/** Gives a token back after its payment failed without a charge, so the same card can be tried again. */
export async function releaseToken(db: Db, tokenHash: string, paymentId: string): Promise<void> {
  await db.updateTable('vault_tokens').set({ used_by_payment: null }).where('token_hash', '=', tokenHash).where('used_by_payment', '=', paymentId).execute();
}

/** docs/platform.md#card-data-at-rest: the CVC is kept only until the payment it serves. */
export async function eraseCvc(db: Db, tokenHash: string): Promise<void> {
  await eraseCvcQuery(db, { tokenHash });
}

const eraseCvcQuery = compiledOnce((db: Db, v: { tokenHash: string }) =>
  db.updateTable('vault_tokens').set({ cvc_sealed: null }).where('token_hash', '=', v.tokenHash).where('cvc_sealed', 'is not', null),
);

/**
 * Erases the CVCs of up to `limit` tokens made at or before `until` that still hold one; how many it erased. At, too:
 * the job is armed for the oldest one's end exactly, and a strict bound there found nothing and re-armed at once.
 */
export async function eraseCvcsMadeUntil(db: Db, until: number, limit: number): Promise<number> {
  const kept = await db.selectFrom('vault_tokens').select('token_hash').where('cvc_sealed', 'is not', null).where('created_at', '<=', until).limit(limit).execute();
  if (kept.length === 0) return 0;
  const erased = await db
    .updateTable('vault_tokens')
    .set({ cvc_sealed: null })
    .where('token_hash', 'in', kept.map((row) => row.token_hash))
    .where('cvc_sealed', 'is not', null)
    .executeTakeFirst();
  return Number(erased.numUpdatedRows);
}

/** When the oldest token still holding a CVC was made; null when none holds one. */
export async function oldestKeptCvc(db: Db): Promise<number | null> {
  const row = await db.selectFrom('vault_tokens').select((e) => e.fn.min('created_at').as('at')).where('cvc_sealed', 'is not', null).executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

/**
 * The tokens of a card, by its fingerprint under each vault key (more than one while a rotation is under way).
 * `lock` (PostgreSQL, inside a transaction): `for update`, so a concurrent change of the same tokens waits and then
 * reads what this one committed; SQLite's one connection already serializes transactions.
 */
export async function tokensOfCard(db: Db, siteId: string, fingerprints: readonly string[], lock = false): Promise<VaultTokenRow[]> {
  const query = db.selectFrom('vault_tokens').selectAll().where('site_id', '=', siteId).where('fingerprint', 'in', fingerprints).orderBy('token_hash');
  return (lock ? query.forUpdate() : query).execute();
}

export async function updateToken(db: Db, tokenHash: string, change: Updateable<VaultTokenTable>): Promise<void> {
  await db.updateTable('vault_tokens').set(change).where('token_hash', '=', tokenHash).execute();
}

/** Async provisioning that has fallen due (docs/platform.md#upgrade-and-network-tokens). */
export async function dueProvisioning(db: Db, now: number, limit: number): Promise<VaultTokenRow[]> {
  return db
    .selectFrom('vault_tokens')
    .selectAll()
    .where('network_token_status', '=', 'PENDING')
    .where('network_token_due', '<=', now)
    .orderBy('network_token_due')
    .limit(limit)
    .execute();
}

export async function nextProvisioningDue(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('vault_tokens')
    .select((eb) => eb.fn.min('network_token_due').as('due'))
    .where('network_token_status', '=', 'PENDING')
    .executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}

/** Conditional on PENDING, so a token is provisioned once however many sweepers race. */
export async function markProvisioned(db: Db, tokenHash: string, change: Updateable<VaultTokenTable>): Promise<boolean> {
  const result = await db
    .updateTable('vault_tokens')
    .set({ ...change, network_token_status: 'ACTIVE', network_token_due: null })
    .where('token_hash', '=', tokenHash)
    .where('network_token_status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The columns a VAULT_KEY rotation rewrites (scripts/vault-rotate.ts): the sealed values, the fingerprint, and a
 * network token stored in the clear before migration 0011, which it seals (docs/operations.md#rotating-vault_key).
 */
export type SealedColumns = Pick<VaultTokenRow, 'sealed' | 'cvc_sealed' | 'fingerprint' | 'network_token' | 'network_token_sealed'>;

/** A token with a value not sealed under the current key (`currentPrefix`, `v2.<key id>.`), or a network token in the clear. */
const toReseal = (currentPrefix: string) => (w: ExpressionBuilder<{ vault_tokens: VaultTokenTable }, 'vault_tokens'>) => {
  const stale = (column: 'cvc_sealed' | 'network_token_sealed') => w.and([w(column, 'is not', null), w(column, 'not like', `${currentPrefix}%`)]);
  return w.or([w('sealed', 'not like', `${currentPrefix}%`), stale('cvc_sealed'), stale('network_token_sealed'), w('network_token', 'is not', null)]);
};

/**
 * Tokens to re-seal (toReseal), in token_hash order after `after`: one batch of a rotation pass. A token's
 * fingerprint follows the key of its `sealed`.
 */
export async function tokensToReseal(db: Db, currentPrefix: string, after: string, limit: number): Promise<Array<SealedColumns & { token_hash: string }>> {
  return db
    .selectFrom('vault_tokens')
    .select(['token_hash', 'sealed', 'cvc_sealed', 'fingerprint', 'network_token', 'network_token_sealed'])
    .where('token_hash', '>', after)
    .where(toReseal(currentPrefix))
    .orderBy('token_hash')
    .limit(limit)
    .execute();
}

export async function countTokensToReseal(db: Db, currentPrefix: string): Promise<number> {
  const row = await db
    .selectFrom('vault_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(toReseal(currentPrefix))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Writes a token's re-sealed columns only while they are still exactly what the rotation read: a token changed
 * meanwhile (card update, CVC erased, network token provisioned, another rotation) is left alone and found again by
 * the next pass.
 */
export async function resealToken(db: Db, tokenHash: string, from: SealedColumns, to: SealedColumns): Promise<boolean> {
  const result = await db
    .updateTable('vault_tokens')
    .set(to)
    .where('token_hash', '=', tokenHash)
    .where('sealed', '=', from.sealed)
    .where('cvc_sealed', from.cvc_sealed === null ? 'is' : '=', from.cvc_sealed)
    .where('fingerprint', from.fingerprint === null ? 'is' : '=', from.fingerprint)
    .where('network_token', from.network_token === null ? 'is' : '=', from.network_token)
    .where('network_token_sealed', from.network_token_sealed === null ? 'is' : '=', from.network_token_sealed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A network token still in the clear, and what is sealed beside it (a rotation may have sealed it already). */
export type ClearNetworkToken = Pick<VaultTokenRow, 'token_hash' | 'network_token_sealed'> & { network_token: string };

/** A batch of the network tokens still in the clear (migration 0012's partial index finds them). */
export async function clearNetworkTokens(db: Db, limit: number): Promise<ClearNetworkToken[]> {
  const rows = await db
    .selectFrom('vault_tokens')
    .select(['token_hash', 'network_token', 'network_token_sealed'])
    .where('network_token', 'is not', null)
    .limit(limit)
    .execute();
  return rows as ClearNetworkToken[];
}

/**
 * Empties the clear column, with `sealed` in the sealed one, only while the row still holds what was read: a card
 * update, a rotation or another instance that sealed it meanwhile wins, and this one changes nothing.
 */
export async function sealClearNetworkToken(db: Db, from: ClearNetworkToken, sealed: string): Promise<boolean> {
  const result = await db
    .updateTable('vault_tokens')
    .set({ network_token: null, network_token_sealed: sealed })
    .where('token_hash', '=', from.token_hash)
    .where('network_token', '=', from.network_token)
    .where('network_token_sealed', from.network_token_sealed === null ? 'is' : '=', from.network_token_sealed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One sealed card value, any (the start-up check of the keys); null when the vault is empty. */
export async function anySealedToken(db: Db): Promise<string | null> {
  const row = await db.selectFrom('vault_tokens').select('sealed').limit(1).executeTakeFirst();
  return row?.sealed ?? null;
}
