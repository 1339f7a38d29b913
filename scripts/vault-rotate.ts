/**
 * `npm run vault:rotate` (its build, dist/scripts/vault-rotate.js): re-seals every value sealed under a previous vault
 * key — card tokens (card data, CVC, network token, the card's lookup fingerprint), queued `/token-updated` bodies and
 * merchant webhook endpoints' secrets (current and previous) — under VAULT_KEY, so the keys in VAULT_PREVIOUS_KEYS can
 * be removed (docs/operations.md#rotating-vault_key). It also seals a network token stored in the clear before
 * migration 0011 (the gateway also seals those itself, at start and on its network-token job's sweeps).
 *
 *   VAULT_KEY=<new> VAULT_PREVIOUS_KEYS=<old> DATABASE_URL=… npm run vault:rotate
 *
 * Run it once every instance serves with the same two variables, so whatever they write meanwhile is sealed under
 * the new key already. Safe beside them and beside another copy of itself: each batch is one transaction of
 * compare-and-swap updates (a row is rewritten only while it still holds exactly what was read), so a crash or a
 * kill loses nothing and re-seals nothing twice; run it again to finish. Before changing anything it opens every
 * value it would re-seal, and stops (exit 1, nothing changed) when a key is missing. It prints key ids, never keys.
 *
 * VAULT_ROTATE_BATCH (default 500) rows per transaction; VAULT_ROTATE_PAUSE_MS (default 0) between batches, to
 * spare a busy database. Exit 0 done, 1 failed (the line says why), 2 bad configuration.
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase, type Db } from '../src/db/database.ts';
import { ConfigError, loadConfig, type Config } from '../src/kernel/config.ts';
import { countEndpointsToReseal, endpointsToReseal, resealEndpointSecrets, type SealedSecrets } from '../src/notifications/endpoint-repository.ts';
import { bodiesToReseal, countBodiesToReseal, replaceBody } from '../src/notifications/outbox-repository.ts';
import { currentBodyPrefix, resealBody, SEALED_PREFIX, sealedValueOf } from '../src/notifications/sealed-body.ts';
import type { SealedCard } from '../src/payments/token-view.ts';
import { createVaultCrypto, sealedKeyId, VaultDamagedError, vaultKeyId, type VaultCrypto } from '../src/payments/vault-crypto.ts';
import { countTokensToReseal, resealToken, tokensToReseal, type SealedColumns } from '../src/payments/vault-repository.ts';

const say = (line: string) => process.stdout.write(`vault-rotate: ${line}\n`);

/** One kind of stored value to re-seal: how to find what is left, and how to rewrite one row. */
interface SealedStore<Row> {
  name: string;
  pending(db: Db, after: string, limit: number): Promise<Row[]>;
  count(db: Db): Promise<number>;
  keyOf(row: Row): string;
  /** The sealed values of a row (to open before anything changes). */
  values(row: Row): string[];
  /** The row re-sealed, computed before the batch's transaction opens; it throws when a value does not open. */
  reseal(row: Row): (trx: Db) => Promise<boolean>;
}

type TokenRow = SealedColumns & { token_hash: string };

function cardTokens(crypto: VaultCrypto): SealedStore<TokenRow> {
  const resealValue = (value: string) => (value.startsWith(crypto.currentPrefix) ? value : crypto.seal(crypto.open(value)));
  return {
    name: 'card tokens',
    pending: (db, after, limit) => tokensToReseal(db, crypto.currentPrefix, after, limit),
    count: (db) => countTokensToReseal(db, crypto.currentPrefix),
    keyOf: (row) => row.token_hash,
    values: (row) => [row.sealed, row.cvc_sealed, row.network_token_sealed].filter((value) => value !== null),
    reseal(row) {
      const { cardNumber } = JSON.parse(crypto.open(row.sealed)) as SealedCard;
      // A network token stored in the clear before migration 0011 is sealed now; once sealed, the clear column is
      // emptied (docs/platform.md#upgrade-and-network-tokens). A sealed one, when both are set, is the one read.
      const networkToken = row.network_token_sealed ?? (row.network_token === null ? null : crypto.seal(row.network_token));
      // The lookup fingerprint moves with the card data: card update matches every known key's fingerprint meanwhile.
      const to: SealedColumns = {
        sealed: resealValue(row.sealed),
        cvc_sealed: row.cvc_sealed === null ? null : resealValue(row.cvc_sealed),
        fingerprint: row.fingerprint !== null && cardNumber ? crypto.fingerprint(cardNumber) : row.fingerprint,
        network_token: null,
        network_token_sealed: networkToken === null ? null : resealValue(networkToken),
      };
      return (trx) => resealToken(trx, row.token_hash, row, to);
    },
  };
}

function notificationBodies(crypto: VaultCrypto): SealedStore<{ id: string; body: string }> {
  const current = currentBodyPrefix(crypto);
  return {
    name: 'notification bodies',
    pending: (db, after, limit) => bodiesToReseal(db, SEALED_PREFIX, current, after, limit),
    count: (db) => countBodiesToReseal(db, SEALED_PREFIX, current),
    keyOf: (row) => row.id,
    values: (row) => [sealedValueOf(row.body)].filter((value) => value !== null),
    reseal(row) {
      const body = resealBody(row.body, crypto);
      return async (trx) => body !== null && (await replaceBody(trx, row.id, row.body, { body }));
    },
  };
}

function endpointSecrets(crypto: VaultCrypto): SealedStore<SealedSecrets & { id: string }> {
  const resealValue = (value: string) => (value.startsWith(crypto.currentPrefix) ? value : crypto.seal(crypto.open(value)));
  return {
    name: 'webhook endpoint secrets',
    pending: (db, after, limit) => endpointsToReseal(db, crypto.currentPrefix, after, limit),
    count: (db) => countEndpointsToReseal(db, crypto.currentPrefix),
    keyOf: (row) => row.id,
    values: (row) => [row.secret_sealed, row.previous_secret_sealed, row.older_secret_sealed].filter((value): value is string => value !== null),
    reseal(row) {
      const to: SealedSecrets = {
        secret_sealed: resealValue(row.secret_sealed),
        previous_secret_sealed: row.previous_secret_sealed === null ? null : resealValue(row.previous_secret_sealed),
        older_secret_sealed: row.older_secret_sealed === null ? null : resealValue(row.older_secret_sealed),
      };
      return (trx) => resealEndpointSecrets(trx, row.id, row, to);
    },
  };
}

/** A value's key id as a message may name it. */
function keyIdOf(value: string): string {
  try {
    return sealedKeyId(value) ?? 'none (sealed before key ids)';
  } catch {
    return 'unknown format';
  }
}

/**
 * Every pending row of every store, opened: by key id, how many values no key given opens (`missing`), and how many
 * name a key given yet do not authenticate under it (`damaged`: altered since, and no key would open them).
 */
async function unopenable(db: Db, stores: ReadonlyArray<SealedStore<unknown>>, crypto: VaultCrypto, batch: number) {
  const missing = new Map<string, number>();
  const damaged = new Map<string, number>();
  for (const store of stores) {
    for (let after = '', rows = await store.pending(db, after, batch); rows.length > 0; rows = await store.pending(db, after, batch)) {
      for (const value of rows.flatMap((row) => store.values(row))) {
        try {
          crypto.open(value);
        } catch (error) {
          const counts = error instanceof VaultDamagedError ? damaged : missing;
          const id = keyIdOf(value);
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
      }
      after = store.keyOf(rows.at(-1)!);
    }
  }
  return { missing, damaged };
}

const counted = (counts: Map<string, number>) => [...counts].map(([id, n]) => `${id}: ${n}`).join(', ');

/** One pass over a store in batches; returns how many rows it rewrote. */
async function pass<Row>(db: Db, store: SealedStore<Row>, batch: number, pauseMs: number): Promise<number> {
  const total = await store.count(db);
  let rewritten = 0;
  let after = '';
  for (let rows = await store.pending(db, after, batch); rows.length > 0; rows = await store.pending(db, after, batch)) {
    const writes = rows.map((row) => store.reseal(row));
    rewritten += await db.transaction().execute(async (trx) => {
      let written = 0;
      for (const write of writes) if (await write(trx)) written++;
      return written;
    });
    after = store.keyOf(rows.at(-1)!);
    say(`${store.name}: ${rewritten} of ${total} re-sealed`);
    if (pauseMs > 0) await sleep(pauseMs);
  }
  return rewritten;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/u.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `"${raw}" must be a whole number in ${min}..${max}.`);
  return Number(raw);
}

function settings(env: NodeJS.ProcessEnv): { config: Config; batch: number; pauseMs: number } {
  const { config } = loadConfig(env);
  if (!config.vaultKey) throw new ConfigError('VAULT_KEY', 'must be set to the new key: every value is re-sealed under it.');
  // Opening a SQLite path creates the file: a mistyped path would "rotate" a new, empty database and say done.
  if (config.database.kind === 'sqlite' && (config.database.path === ':memory:' || !existsSync(config.database.path))) {
    throw new ConfigError('DATABASE_URL', `names no existing database (${config.database.path}): nothing is stored there to rotate.`);
  }
  return { config, batch: whole(env, 'VAULT_ROTATE_BATCH', 500, 1, 10_000), pauseMs: whole(env, 'VAULT_ROTATE_PAUSE_MS', 0, 0, 60_000) };
}

async function main(): Promise<number> {
  let loaded;
  try {
    loaded = settings(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`vault-rotate: bad configuration: ${error.message}\n`);
    return 2;
  }
  const { config, batch, pauseMs } = loaded;
  const crypto = createVaultCrypto({ current: config.vaultKey!, previous: config.vaultPreviousKeys });
  // Methods are bivariant in their parameters, so each store passes as one of unknown rows.
  const stores: ReadonlyArray<SealedStore<unknown>> = [cardTokens(crypto), notificationBodies(crypto), endpointSecrets(crypto)];
  const database = await createDatabase(config.database);
  try {
    await database.migrate();
    const { db } = database;
    say(`re-sealing under key id ${crypto.keyId} (VAULT_KEY); also opening ${crypto.keyIds.slice(1).join(', ') || 'no other key'} (VAULT_PREVIOUS_KEYS)`);
    const { missing, damaged } = await unopenable(db, stores, crypto, batch);
    if (missing.size > 0 || damaged.size > 0) {
      if (missing.size > 0) process.stderr.write(`vault-rotate: no key given opens some values (key id: count — ${counted(missing)}); add the key that sealed them to VAULT_PREVIOUS_KEYS.\n`);
      if (damaged.size > 0) process.stderr.write(`vault-rotate: some values name a key given but do not authenticate under it (key id: count — ${counted(damaged)}): they were altered or damaged since they were sealed; restore those rows from a backup.\n`);
      process.stderr.write('vault-rotate: Nothing was changed.\n');
      return 1;
    }
    // A second pass takes the rows a concurrent change made this one skip; what is still left after three was
    // written under an old key meanwhile: an instance still runs with it.
    for (let round = 1; round <= 3; round++) {
      for (const store of stores) await pass(db, store, batch, pauseMs);
      const left = (await Promise.all(stores.map((store) => store.count(db)))).reduce((a, b) => a + b, 0);
      if (left === 0) {
        const old = config.vaultPreviousKeys.map(vaultKeyId).filter((id) => id !== crypto.keyId);
        say(`done: every card token, notification body and webhook endpoint secret is sealed under key id ${crypto.keyId}.`);
        // Not "remove it now": an Idempotency-Key's body digest cannot be re-keyed, and a retry recorded under the old
        // key replays only with it listed; removed sooner, the retry is answered 400 as if its body had changed.
        say(`no value needs ${old.length > 0 ? `key id ${old.join(', ')}` : 'an older key'} any more, but keep VAULT_PREVIOUS_KEYS for 48 hours after the last instance switched to the new VAULT_KEY (an Idempotency-Key of /api/payments recorded under the old key replays only with it); then remove it from every instance and restart them (docs/operations.md#rotating-vault_key).`);
        return 0;
      }
    }
    process.stderr.write('vault-rotate: values are still being sealed under an old key: does an instance run without the new VAULT_KEY? Restart every instance with it, then run this again.\n');
    return 1;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`vault-rotate: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
