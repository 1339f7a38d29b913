/**
 * VAULT_KEY rotation (issue 17 point 6, docs/operations.md#rotating-vault_key): with the new key in VAULT_KEY and
 * the old one in VAULT_PREVIOUS_KEYS, the gateway opens what either sealed (and what was sealed before key ids)
 * and finds cards by either key's fingerprint; scripts/vault-rotate.ts, run as a real process, re-seals card
 * tokens, queued bodies and webhook endpoint secrets under the new key, survives SIGKILL mid-way, runs twice at once
 * beside a serving gateway, and refuses to change anything when a key is missing. Afterwards the new key alone opens
 * and finds everything, and an endpoint made before the rotation still signs what standardwebhooks verifies.
 */
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { createManualClock } from '../../src/kernel/clock.ts';
import { ConfigError, loadConfig } from '../../src/kernel/config.ts';
import { createVaultCrypto, vaultKeyId } from '../../src/payments/vault-crypto.ts';
import type { TestGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';
import { startProcess, startupRefusal } from '../support/process.ts';
import { endpointAt, hooks, merchantSite, type Site } from '../webhooks/support.ts';
import { card, CARDS, paymentBody, paymentsGateway, siteCalls } from './support.ts';
import { b64, keyEnv, rotate, sharedDatabase } from './vault-rotate-process.ts';

const [A, B, C] = [randomBytes(32), randomBytes(32), randomBytes(32)];

const gatewayUnder = (url: string, current: Buffer, previous: Buffer[] = []) =>
  // The wall time: standardwebhooks refuses a signature whose timestamp is over five minutes away.
  paymentsGateway({ clock: createManualClock(Date.now()), env: { DATABASE_URL: url, VAULT_KEY: b64(current), ...(previous.length ? { VAULT_PREVIOUS_KEYS: previous.map(b64).join(',') } : {}) } });

/** The format before key ids (`v1.`), written independently of the code under test: data already on disk. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'sleeve-vault seal v1', 32)), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return 'v1.' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

interface Seeded {
  /** Every card token with the number it holds. */
  tokens: Array<{ token: string; number: string }>;
  wallet: string;
  /** A merchant site's webhook endpoint whose secret was rotated twice: the three secrets sign, newest first. */
  endpoint: { id: string; site: Site; secrets: string[]; receiver: Awaited<ReturnType<typeof endpointAt>>['receiver'] };
}

/**
 * Card tokens (some with a CVC or aliases), a wallet token, three /token-updated bodies and a webhook endpoint with a
 * current and a previous secret, all under key A; one token and one body in the v1 format.
 */
async function seed(t: TestGateway): Promise<Seeded> {
  const api = siteCalls(t);
  const tokens: Seeded['tokens'] = [];
  for (const [number, count, extra] of [[CARDS.ok, 3, {}], [CARDS.mastercard, 3, { cvc: '123' }], [CARDS.declined, 2, { cvc: '456' }]] as const) {
    for (let i = 0; i < count; i++) tokens.push({ token: await api.token(number, { ...extra, tokenAliases: { shopper: `${number.slice(-4)}-${i}` } }), number });
  }
  expect((await api.updateCard(card(CARDS.mastercard, { expirationMonth: 3 }))).status).toBe(200);
  const wallet = (await t.rest('POST', '/v1/sandbox/wallet-confirmation', {}, api.auth)).body.token as string;
  const db = t.gateway.database.db;
  const underA = createVaultCrypto(A);
  const legacy = await db.selectFrom('vault_tokens').select(['token_hash', 'sealed', 'cvc_sealed']).where('cvc_sealed', 'is not', null).orderBy('token_hash').executeTakeFirstOrThrow();
  await db.updateTable('vault_tokens').set({ sealed: sealV1(A, underA.open(legacy.sealed)), cvc_sealed: sealV1(A, underA.open(legacy.cvc_sealed!)) }).where('token_hash', '=', legacy.token_hash).execute();
  const body = await db.selectFrom('outbox_notifications').select(['id', 'body']).where('path', '=', '/token-updated').orderBy('id').executeTakeFirstOrThrow();
  const envelope = JSON.parse(body.body) as { $sealed: string; $masked: unknown };
  await db.updateTable('outbox_notifications').set({ body: JSON.stringify({ ...envelope, $sealed: sealV1(A, underA.open(envelope.$sealed)) }) }).where('id', '=', body.id).execute();
  const site = await merchantSite(t);
  const at = await endpointAt(t, site);
  // Rotated twice within the day: three secrets sign, each sealed.
  const rotated = await hooks(t, site, 'POST', `/${at.id}/rotate-secret`);
  expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
  const again = await hooks(t, site, 'POST', `/${at.id}/rotate-secret`);
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  return { tokens, wallet, endpoint: { id: at.id, site, secrets: [again.body.secret as string, rotated.body.secret as string, at.secret], receiver: at.receiver } };
}

/** Every sealed value in the database (card data, CVCs, queued bodies, endpoint secrets), by row, with the fingerprints. */
async function sealedValues(db: Db) {
  const tokens = await db.selectFrom('vault_tokens').select(['token_hash', 'sealed', 'cvc_sealed', 'fingerprint']).orderBy('token_hash').execute();
  const bodies = await db.selectFrom('outbox_notifications').select(['id', 'body']).where('path', '=', '/token-updated').orderBy('id').execute();
  const endpoints = await db.selectFrom('webhook_endpoints').select(['id', 'secret_sealed', 'previous_secret_sealed', 'older_secret_sealed']).orderBy('id').execute();
  const values = [
    ...tokens.flatMap((r) => [r.sealed, r.cvc_sealed]),
    ...bodies.map((r) => (JSON.parse(r.body) as { $sealed: string }).$sealed),
    ...endpoints.flatMap((r) => [r.secret_sealed, r.previous_secret_sealed, r.older_secret_sealed]),
  ];
  return { tokens, bodies, endpoints, values: values.filter((v): v is string => v !== null) };
}

/** Each token detokenizes to its number through `t`. */
async function expectDetokenized(t: TestGateway, seeded: Seeded): Promise<void> {
  const api = siteCalls(t);
  for (const { token, number } of seeded.tokens) {
    const res = await api.detokenize({ token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cardNumber).toBe(number);
  }
}

/** Neither a key nor a card number in anything the script printed. */
function expectNoSecrets(output: string): void {
  for (const key of [A, B, C]) expect(output).not.toContain(b64(key));
  for (const number of Object.values(CARDS)) expect(output).not.toContain(number);
}

describe('VAULT_KEY rotation', () => {
  it('opens values of the previous key (and from before key ids) and finds their cards, while sealing under the new key', async () => {
    const url = sharedDatabase();
    const before = await gatewayUnder(url, A);
    const seeded = await seed(before);
    await before.gateway.dispose();

    const t = await gatewayUnder(url, B, [A]);
    await expectDetokenized(t, seeded);
    const api = siteCalls(t);
    const fresh = await api.token(CARDS.ok);
    const db = t.gateway.database.db;
    const underB = createVaultCrypto(B);
    // Card update finds the tokens of the old key's fingerprint and the new one's, and re-hashes them under the new.
    expect((await api.updateCard(card(CARDS.ok, { expirationMonth: 7 }))).status).toBe(200);
    const okTokens = [...seeded.tokens.filter((s) => s.number === CARDS.ok).map((s) => s.token), fresh];
    for (const token of okTokens) expect((await api.detokenize({ token })).body.expirationMonth).toBe(7);
    const rows = await db.selectFrom('vault_tokens').select(['sealed', 'fingerprint']).where('fingerprint', 'in', createVaultCrypto({ current: B, previous: [A] }).fingerprints(CARDS.ok)).execute();
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.sealed.startsWith(`v2.${vaultKeyId(B)}.`)).toBe(true);
      expect(row.fingerprint).toBe(underB.fingerprint(CARDS.ok));
    }
    // Every value of either key, and of neither key id, opens: card data, CVCs, queued bodies.
    const { values } = await sealedValues(db);
    expect(values.filter((v) => v.startsWith(`v2.${vaultKeyId(A)}.`)).length).toBeGreaterThan(0);
    expect(values.filter((v) => v.startsWith('v1.'))).toHaveLength(3);
    const both = createVaultCrypto({ current: B, previous: [A] });
    for (const value of values) expect(() => both.open(value)).not.toThrow();
  });

  it('replays an Idempotency-Key recorded under the previous key, and still refuses it another body', async () => {
    const url = sharedDatabase();
    const before = await gatewayUnder(url, A);
    const first = await siteCalls(before).pay(paymentBody(), 'across-rotation');
    expect(first.status).toBe(201);
    await before.gateway.dispose();

    const t = await gatewayUnder(url, B, [A]);
    const api = siteCalls(t);
    expect((await api.pay(paymentBody(), 'across-rotation')).body).toEqual(first.body);
    expect((await api.pay(paymentBody(CARDS.ok, { amount: 2000 }), 'across-rotation')).status).toBe(400);
  });

  it('re-seals everything under the new key, resuming after a SIGKILL, two copies at once beside a serving gateway', async () => {
    const url = sharedDatabase();
    const before = await gatewayUnder(url, A);
    const seeded = await seed(before);
    const underAOnly = createVaultCrypto(A);
    const sent = (await sealedValues(before.gateway.database.db)).bodies.map((r) => underAOnly.open((JSON.parse(r.body) as { $sealed: string }).$sealed));
    await before.gateway.dispose();
    const t = await gatewayUnder(url, B, [A]);
    const db = t.gateway.database.db;
    const kidA = `v2.${vaultKeyId(A)}.`;
    const kidB = `v2.${vaultKeyId(B)}.`;

    // Killed after two batches of two: part re-sealed, part not, every token still opens.
    const first = rotate(url, { ...keyEnv(B, [A]), VAULT_ROTATE_BATCH: '2', VAULT_ROTATE_PAUSE_MS: '300' });
    await first.waitFor(/card tokens: 4 of \d+ re-sealed/u);
    first.kill();
    await first.exited;
    const { values: midway, tokens: rowsBefore, bodies: bodiesBefore } = await sealedValues(db);
    expect(midway.filter((v) => v.startsWith(kidB)).length).toBeGreaterThanOrEqual(4);
    expect(midway.filter((v) => !v.startsWith(kidB)).length).toBeGreaterThan(0);
    await expectDetokenized(t, seeded);

    // Two copies at once, one row per batch, racing for the same rows while the gateway tokenizes and updates cards.
    const [second, third] = [0, 1].map(() => rotate(url, { ...keyEnv(B, [A]), VAULT_ROTATE_BATCH: '1', VAULT_ROTATE_PAUSE_MS: '100' }));
    await Promise.all([second!, third!].map((run) => run.waitFor(/card tokens: \d+ of|done:/u)));
    const api = siteCalls(t);
    const added = [];
    for (let i = 0; i < 3; i++) {
      added.push({ token: await api.token(CARDS.mastercard, { cvc: '321' }), number: CARDS.mastercard });
      expect((await api.updateCard(card(CARDS.declined, { expirationMonth: 4 + i }))).status).toBe(200);
    }
    expect(await second!.exited, second!.output()).toBe(0);
    expect(await third!.exited, third!.output()).toBe(0);
    for (const run of [first, second!, third!]) expectNoSecrets(run.output());
    expect(second!.output()).toMatch(/done: every card token, notification body and webhook endpoint secret is sealed under key id [0-9a-f]{12}\./u);
    // Not "remove it now": an Idempotency-Key recorded under the old key replays only with it (docs/operations.md).
    expect(second!.output()).toContain(`no value needs key id ${vaultKeyId(A)} any more, but keep VAULT_PREVIOUS_KEYS for 48 hours after the last instance switched to the new VAULT_KEY`);
    expect(second!.output()).not.toMatch(/remove VAULT_PREVIOUS_KEYS from every instance and restart them\.$/mu);

    const after = await sealedValues(db);
    expect(after.values.filter((v) => v.startsWith(kidA) || v.startsWith('v1.'))).toEqual([]);
    expect(after.values.every((v) => v.startsWith(kidB))).toBe(true);
    // Nothing lost: the rows of before and the three tokenized since, each CVC kept (nothing paid), each body kept.
    expect(after.tokens).toHaveLength(rowsBefore.length + 3);
    expect(after.tokens.filter((r) => r.cvc_sealed !== null)).toHaveLength(rowsBefore.filter((r) => r.cvc_sealed !== null).length + 3);
    expect(after.bodies.length).toBeGreaterThan(bodiesBefore.length);
    expect(after.bodies.map((r) => r.id)).toEqual(expect.arrayContaining(bodiesBefore.map((r) => r.id)));
    await t.gateway.dispose();

    // The new key alone: every token opens, every card is found by number, every queued body opens as it was queued.
    const only = await gatewayUnder(url, B);
    const all = { ...seeded, tokens: [...seeded.tokens, ...added] };
    await expectDetokenized(only, all);
    const onlyApi = siteCalls(only);
    expect((await onlyApi.updateCard(card(CARDS.mastercard, { expirationMonth: 11 }))).status).toBe(200);
    for (const { token } of all.tokens.filter((s) => s.number === CARDS.mastercard)) expect((await onlyApi.detokenize({ token })).body.expirationMonth).toBe(11);
    const underBOnly = createVaultCrypto(B);
    const opened = (await sealedValues(only.gateway.database.db)).bodies.map((r) => underBOnly.open((JSON.parse(r.body) as { $sealed: string }).$sealed));
    expect(opened).toEqual(expect.arrayContaining(sent));

    // The endpoint made under key A signs under key B alone, with its three secrets (two rotations' 24 hours).
    const { endpoint } = seeded;
    expect(after.endpoints.map((r) => r.id)).toContain(endpoint.id);
    const test = await only.rest('POST', `/v1/webhooks/endpoints/${endpoint.id}/test`, undefined, endpoint.site.auth);
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    const [request] = await endpoint.receiver.waitFor(1);
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(3);
    for (const secret of endpoint.secrets) expect(new Webhook(secret).verify(request!.raw, headers)).toMatchObject({ type: 'WEBHOOK_TEST', endpointId: endpoint.id });
  });

  it('changes nothing and says which key is missing when no key given opens a value', async () => {
    const url = sharedDatabase();
    const t = await gatewayUnder(url, A);
    await seed(t);
    const snapshot = await sealedValues(t.gateway.database.db);

    const missing = rotate(url, keyEnv(C, [B]));
    expect(await missing.exited).toBe(1);
    expect(missing.output()).toContain('no key given opens some values');
    expect(missing.output()).toContain(`${vaultKeyId(A)}: `);
    expect(missing.output()).toContain('none (sealed before key ids): ');
    expect(missing.output()).toContain('Nothing was changed.');
    expectNoSecrets(missing.output());
    expect(await sealedValues(t.gateway.database.db)).toEqual(snapshot);

    const badPrevious = rotate(url, { VAULT_KEY: b64(B), VAULT_PREVIOUS_KEYS: `${b64(A)},${b64(A).slice(0, 20)}` });
    expect(await badPrevious.exited).toBe(2);
    expect(badPrevious.output().trim()).toBe('vault-rotate: bad configuration: VAULT_PREVIOUS_KEYS: entry 2 must be 32 bytes, base64-encoded (keys separated by commas).');
    const noKey = rotate(url, { VAULT_PREVIOUS_KEYS: b64(A) });
    expect(await noKey.exited).toBe(2);
    expect(noKey.output()).toContain('VAULT_KEY: must be set to the new key');
    // A mistyped SQLite path is refused, not created and "rotated" empty.
    const typo = join(tempDir(), 'sleve.db');
    const wrongFile = rotate(`file:${typo}`, keyEnv(B, [A]));
    expect(await wrongFile.exited).toBe(2);
    expect(wrongFile.output()).toContain('DATABASE_URL: names no existing database');
    expect(existsSync(typo)).toBe(false);
    expect(await sealedValues(t.gateway.database.db)).toEqual(snapshot);
  });

  it('refuses to start with a VAULT_KEY that opens nothing the vault holds, naming the key id that sealed it', async () => {
    const url = sharedDatabase();
    const before = await gatewayUnder(url, A);
    await siteCalls(before).token(CARDS.ok);
    await before.gateway.dispose();
    // Before, it said ready and answered 500 to every card payment and detokenize.
    const refused = startupRefusal({ DATABASE_URL: url, VAULT_KEY: b64(B) });
    expect(refused.status).toBe(2);
    expect(refused.lines).toEqual([expect.stringMatching(new RegExp(`^sleeve-gateway: bad configuration: VAULT_KEY: .*${vaultKeyId(A)}.*VAULT_PREVIOUS_KEYS`, 'u'))]);
    expect(refused.lines.join('\n')).not.toContain(b64(B));
    // With the old key listed it starts (as step 3 of a rotation does).
    const started = await startProcess({ DATABASE_URL: url, ...keyEnv(B, [A]) });
    expect((await fetch(`${started.url}/ready`)).status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('refuses to start with a VAULT_KEY that opens no endpoint secret, with no card data stored', async () => {
    const url = sharedDatabase();
    const before = await gatewayUnder(url, A);
    await endpointAt(before, await merchantSite(before));
    await before.gateway.dispose();
    // Before, it said ready, and every delivery failed on the secret until the endpoint was disabled.
    const refused = startupRefusal({ DATABASE_URL: url, VAULT_KEY: b64(B) });
    expect(refused.status).toBe(2);
    expect(refused.lines).toEqual([expect.stringMatching(new RegExp(`^sleeve-gateway: bad configuration: VAULT_KEY: the merchants' endpoint secrets .*${vaultKeyId(A)}`, 'u'))]);
  });

  it('refuses a bad VAULT_PREVIOUS_KEYS at start with one line that names it and not the value', () => {
    const value = 'c2hvcnQ=';
    let caught: unknown;
    try {
      loadConfig({ VAULT_PREVIOUS_KEYS: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toMatch(/^VAULT_PREVIOUS_KEYS: entry 1 must be 32 bytes/u);
    expect((caught as ConfigError).message).not.toContain(value);
    expect(loadConfig({ VAULT_PREVIOUS_KEYS: ` ${b64(A)} , ${b64(B)} ` }).config.vaultPreviousKeys).toEqual([A, B]);
  });
});
