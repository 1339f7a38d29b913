/**
 * Network tokens at rest (docs/platform.md#upgrade-and-network-tokens): a provisioned `ntk_…` is a payment credential
 * that stands in for the card number, so it is sealed under VAULT_KEY like the card data (vault_tokens.
 * network_token_sealed, migration 0011). Provisioned at once or later, no row holds it in the clear (nor, on SQLite,
 * the database file), and `/token-updated` still carries the same network token to a real receiver.
 * `npm run vault:rotate` re-seals it under a new key; one stored in the clear before this change (or by an older
 * instance during the upgrade) is sealed by the gateway itself, at start and on its network-token job's poll, and by
 * the rotation (docs/operations.md#rotating-vault_key).
 */
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { createManualClock } from '../../src/kernel/clock.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { hashToken } from '../../src/kernel/tokens.ts';
import { NETWORK_TOKEN_DELAY_MS } from '../../src/payments/network-token-service.ts';
import { createVaultCrypto, vaultKeyId } from '../../src/payments/vault-crypto.ts';
import { SIGNING_KEY, turnUntil } from '../notifications/helpers.ts';
import { BACKEND } from '../support/databases.ts';
import { secretsInDatabaseFiles } from '../support/database-files.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { card, CARDS, legacyTokenRow, siteCalls } from './support.ts';
import { b64, keyEnv, rotate, sharedDatabase } from './vault-rotate-process.ts';

const [A, B] = [randomBytes(32), randomBytes(32)];
const logged: string[] = [];

afterAll(() => {
  // Not even one network token in a log line (a masked one, `ntk_…abcd`, would not match).
  expect(logged.join('\n')).not.toMatch(/ntk_[A-Za-z0-9_-]/u);
});

/** A gateway under `current` (opening `previous` too) that notifies `receiver`, on the database at `url`. */
const gatewayUnder = (url: string, receiver: Receiver, current: Buffer, previous: Buffer[] = []) =>
  testGateway({
    // The wall time: the receiver's Standard Webhooks check refuses a timestamp over five minutes away.
    clock: createManualClock(Date.now()),
    logger: createLogger('debug', (line) => logged.push(line)),
    env: {
      DATABASE_URL: url,
      MERCHANT_ENDPOINT: receiver.url,
      MERCHANT_SIGNING_KEY: SIGNING_KEY,
      VAULT_KEY: b64(current),
      ...(previous.length ? { VAULT_PREVIOUS_KEYS: previous.map(b64).join(',') } : {}),
    },
  });

/** The network token of each `/token-updated` the receiver got about `token`, in order of arrival. */
const sentFor = (receiver: Receiver, token: string): Array<string | null> =>
  receiver
    .distinct()
    .filter((r) => r.path === '/token-updated' && r.body.token === token)
    .map((r) => (r.body.networkToken?.networkToken as string | undefined) ?? null);

/** On SQLite: no file of the database (main, WAL) holds any of `secrets`, in any byte. */
function expectNotInFiles(url: string, secrets: string[]): void {
  if (BACKEND !== 'postgres') expect(secretsInDatabaseFiles(dirname(url.slice('file:'.length)), secrets)).toEqual([]);
}

/** Waits for a further `/token-updated` about `token`; returns the network token it carried. */
async function nextSent(t: TestGateway, receiver: Receiver, token: string, before: number): Promise<string | null> {
  const sent = await turnUntil(t, () => (sentFor(receiver, token).length > before ? sentFor(receiver, token) : null));
  return sent.at(-1)!;
}

/** A card update of `number` (a new expiry month), and the network token its `/token-updated` carried for `token`. */
async function updateAndReceive(t: TestGateway, receiver: Receiver, number: string, token: string, month: number): Promise<string | null> {
  const before = sentFor(receiver, token).length;
  expect((await siteCalls(t).updateCard(card(number, { expirationMonth: month }))).status).toBe(200);
  return nextSent(t, receiver, token, before);
}

interface Provisioned {
  token: string;
  networkToken: string;
}

/** One token upgraded with a network token at once, one later; each network token as the merchant received it. */
async function provisionBoth(t: TestGateway, receiver: Receiver): Promise<{ sync: Provisioned; later: Provisioned }> {
  const api = siteCalls(t);
  const sync = await api.token(CARDS.ok);
  expect((await api.upgrade({ token: sync, networkToken: { provision: true, async: false } })).body.networkTokenStatus).toEqual({ created: true });
  const later = await api.token(CARDS.mastercard);
  expect((await api.upgrade({ token: later, networkToken: { provision: true, async: true } })).body.networkTokenStatus).toEqual({ created: false });
  await t.clock.advance(NETWORK_TOKEN_DELAY_MS);
  const provisioned = await nextSent(t, receiver, later, 0);
  expect(provisioned).toMatch(/^ntk_/u);
  // A synchronous provisioning notifies nobody: a card update's /token-updated is where its network token shows.
  const syncNetworkToken = await updateAndReceive(t, receiver, CARDS.ok, sync, 3);
  expect(syncNetworkToken).toMatch(/^ntk_/u);
  // Read back from the vault, not from the provisioning that just made it.
  expect(await updateAndReceive(t, receiver, CARDS.mastercard, later, 3)).toBe(provisioned);
  return { sync: { token: sync, networkToken: syncNetworkToken! }, later: { token: later, networkToken: provisioned! } };
}

/** A row as an upgrade provisioned it before migration 0011: the network token in its own column, in the clear. */
async function legacyRow(t: TestGateway): Promise<Provisioned> {
  const token = `tok_${randomBytes(16).toString('hex')}`;
  const networkToken = `ntk_${randomBytes(8).toString('hex')}`;
  const row = legacyTokenRow({ tokenHash: hashToken(token), token, networkToken, crypto: createVaultCrypto(A), siteId: t.siteId, now: t.clock.now() });
  await t.gateway.database.db.insertInto('vault_tokens').values(row).execute();
  return { token, networkToken };
}

const rowOf = (db: Db, token: string) => db.selectFrom('vault_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();

/** No vault_tokens column of any row holds a network token in the clear. */
async function expectNoneInTheClear(db: Db, networkTokens: string[]): Promise<void> {
  const rows = await db.selectFrom('vault_tokens').selectAll().execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row.network_token, 'network_token in the clear').toBeNull();
    for (const [column, value] of Object.entries(row)) {
      if (typeof value !== 'string') continue;
      expect(value, column).not.toMatch(/^ntk_/u);
      for (const networkToken of networkTokens) expect(value, column).not.toContain(networkToken);
    }
  }
}

/** Each token's network token sealed under `key` (and opening to the one the merchant got), the clear column empty. */
async function expectSealedUnder(db: Db, key: Buffer, provisioned: Provisioned[]): Promise<void> {
  for (const { token, networkToken } of provisioned) {
    const row = await rowOf(db, token);
    expect(row.network_token).toBeNull();
    expect(row.network_token_sealed?.startsWith(`v2.${vaultKeyId(key)}.`), String(row.network_token_sealed)).toBe(true);
    expect(createVaultCrypto(key).open(row.network_token_sealed!)).toBe(networkToken);
  }
}

describe('network tokens at rest', () => {
  it('seals a network token provisioned at once or later, and /token-updated still carries it', async () => {
    const url = sharedDatabase();
    const receiver = await startReceiver();
    const t = await gatewayUnder(url, receiver, A);
    const { sync, later } = await provisionBoth(t, receiver);
    const networkTokens = [sync.networkToken, later.networkToken];
    await expectNoneInTheClear(t.gateway.database.db, networkTokens);
    await expectSealedUnder(t.gateway.database.db, A, [sync, later]);
    expect(receiver.schemaErrors).toEqual([]);
    await t.gateway.dispose();

    expectNotInFiles(url, networkTokens);
  });

  it('re-seals network tokens under the new key with vault:rotate, and /token-updated still carries the same ones', async () => {
    const url = sharedDatabase();
    const receiver = await startReceiver();
    const before = await gatewayUnder(url, receiver, A);
    const { sync, later } = await provisionBoth(before, receiver);
    await before.gateway.dispose();

    const run = rotate(url, keyEnv(B, [A]));
    expect(await run.exited, run.output()).toBe(0);
    for (const { networkToken } of [sync, later]) expect(run.output()).not.toContain(networkToken);

    // The new key alone opens them.
    const after = await gatewayUnder(url, receiver, B);
    const db = after.gateway.database.db;
    await expectSealedUnder(db, B, [sync, later]);
    expect(await updateAndReceive(after, receiver, CARDS.ok, sync.token, 5)).toBe(sync.networkToken);
    expect(await updateAndReceive(after, receiver, CARDS.mastercard, later.token, 5)).toBe(later.networkToken);
    await expectNoneInTheClear(db, [sync.networkToken, later.networkToken]);
  });

  it('delivers a network token stored in the clear before it was sealed, and a card update seals it', async () => {
    const receiver = await startReceiver();
    const t = await gatewayUnder(sharedDatabase(), receiver, A);
    const { token, networkToken } = await legacyRow(t);
    expect(await updateAndReceive(t, receiver, CARDS.ok, token, 3)).toBe(networkToken);
    const db = t.gateway.database.db;
    await expectSealedUnder(db, A, [{ token, networkToken }]);
    await expectNoneInTheClear(db, [networkToken]);
    expect(await updateAndReceive(t, receiver, CARDS.ok, token, 4)).toBe(networkToken);
  });

  it('seals a network token stored in the clear by an older instance on its next poll, and one left at start', async () => {
    const url = sharedDatabase();
    const receiver = await startReceiver();
    const t = await gatewayUnder(url, receiver, A);
    // Written beside this gateway as an instance from before migration 0011 writes it, during a rolling upgrade.
    const first = await legacyRow(t);
    await t.clock.advance(30_000);
    await expectSealedUnder(t.gateway.database.db, A, [first]);
    const second = await legacyRow(t);
    await t.gateway.dispose();

    const after = await gatewayUnder(url, receiver, A);
    const db = after.gateway.database.db;
    await expectSealedUnder(db, A, [second]);
    await expectNoneInTheClear(db, [first.networkToken, second.networkToken]);
    expect(await updateAndReceive(after, receiver, CARDS.ok, second.token, 4)).toBe(second.networkToken);
    await after.gateway.dispose();
    expectNotInFiles(url, [first.networkToken, second.networkToken]);
  });

  it('seals with vault:rotate a network token stored in the clear before it was sealed', async () => {
    const url = sharedDatabase();
    const receiver = await startReceiver();
    const t = await gatewayUnder(url, receiver, A);
    const { token, networkToken } = await legacyRow(t);
    await t.gateway.dispose();

    // The step after the upgrade (docs/operations.md#rotating-vault_key): the current key alone seals what is in the clear.
    const run = rotate(url, { VAULT_KEY: b64(A) });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toContain(networkToken);
    // Nor in the file's free space: the bytes a rewritten row leaves behind in its page (secure_delete).
    expectNotInFiles(url, [networkToken]);

    const after = await gatewayUnder(url, receiver, A);
    const db = after.gateway.database.db;
    await expectSealedUnder(db, A, [{ token, networkToken }]);
    await expectNoneInTheClear(db, [networkToken]);
    expect(await updateAndReceive(after, receiver, CARDS.ok, token, 4)).toBe(networkToken);
  });
});
