/**
 * Where card data may and may not be (docs/platform.md#card-data-at-rest): the database file holds no card number in plaintext, no log
 * line carries one (nor a CVC), the vault key is generated once with mode 0600 and reused after a restart, and
 * GraphQL shows a token masked.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { CVC_KEPT_MS } from '../../src/payments/cvc-retention-service.ts';
import { eventually } from '../support/receiver.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { secretsInDatabaseFiles } from '../support/database-files.ts';
import { tempDir } from '../support/temp-dir.ts';
import { ALL_TEST_NUMBERS, card, CARDS, paymentBody, showsCvc, siteCalls } from './support.ts';

const CVC = '9731';

/** Every path that handles card data, once: tokenize, detokenize, update, /api/payments, order pay, failures. */
async function exercise(t: TestGateway): Promise<void> {
  const api = siteCalls(t);
  const token = await api.token(CARDS.ok, { cvc: CVC, tokenAliases: { shopper: 's-1' } });
  await api.detokenize({ token });
  await api.updateCard(card(CARDS.ok, { expirationMonth: 2 }));
  await api.upgrade({ token, networkToken: { provision: true, async: true } });
  await t.clock.advance(5_000);
  for (const number of ALL_TEST_NUMBERS) await api.pay(paymentBody(number, { paymentMethod: { type: 'card', card: { number, expirationMonth: 1, expirationYear: 2031, holderName: 'A B', cvc: CVC } } }));
  await api.pay(paymentBody('4242424242424241'));
  const { orderNumber, payToken } = await t.createOrder();
  for (const number of [CARDS.declined, CARDS.timeoutAfterCharge, CARDS.timeoutAfterCharge]) {
    const res = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(number), cvc: CVC });
    await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: res.body.token });
  }
}

describe('card data at rest and in logs', () => {
  it('keeps no card number or CVC in plaintext in the SQLite files, and logs none', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const t = await testGateway({ env: { DATABASE_URL: `file:${join(dir, 'sleeve.db')}`, LOG_LEVEL: 'debug' }, logger: createLogger('debug', (line) => lines.push(line)) });
    await exercise(t);
    const db = t.gateway.database.db;
    // Every CVC that served a payment was erased with it.
    const served = db.selectFrom('payments').select('token_hash').where('token_hash', 'is not', null);
    const kept = await db.selectFrom('vault_tokens').select('token_hash').where('cvc_sealed', 'is not', null).where('token_hash', 'in', served).execute();
    expect(kept).toEqual([]);
    expect(await served.execute()).not.toHaveLength(0);
    await t.gateway.dispose();

    expect(secretsInDatabaseFiles(dir, ALL_TEST_NUMBERS)).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    for (const number of ALL_TEST_NUMBERS) expect(log).not.toContain(number);
    // Not even an attempt the logger had to scrub, and no CVC.
    expect(log).not.toContain('[redacted-number]');
    expect(showsCvc(log, CVC)).toBe(false);
  });

  it("erases the CVC of a token whose payment never comes once its time ends: a cancelled order's pay-page card, a card tokenized and never charged", async () => {
    const t = await testGateway();
    const db = t.gateway.database.db;
    const keptCvcs = async () => (await db.selectFrom('vault_tokens').select('token_hash').where('cvc_sealed', 'is not', null).execute()).length;
    const { orderNumber, payToken } = await t.createOrder();
    expect((await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.ok), cvc: CVC })).status).toBe(200);
    const staff = await t.gql('mutation ($n: ID!) { cancelOrder(orderNumber: $n, reason: "changed mind") { status } }', { n: orderNumber }, { token: 'test-admin-token' });
    expect(staff.errors).toBeUndefined();
    await siteCalls(t).token(CARDS.ok, { cvc: CVC });
    expect(await keptCvcs()).toBe(2);
    // Still kept a moment before their time ends (a checkout may be slow), then erased by the CVC job.
    await t.clock.advance(CVC_KEPT_MS - 60_000);
    const young = await siteCalls(t).token(CARDS.mastercard, { cvc: CVC });
    expect(await keptCvcs()).toBe(3);
    await t.clock.advance(61_000);
    await eventually(async () => ((await keptCvcs()) === 1 ? true : null));
    // The token made later keeps its CVC for its own time, and still pays with it.
    expect((await siteCalls(t).pay(paymentBody(CARDS.ok, { paymentMethod: { type: 'card', token: young } }))).status).toBe(201);
    expect(await keptCvcs()).toBe(0);
  });

  it('generates the vault key once into the data directory with mode 0600 and reuses it after a restart', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `file:${join(dir, 'sleeve.db')}` };
    const first = await testGateway({ env });
    const token = await siteCalls(first).token();
    await first.gateway.dispose();
    expect(statSync(join(dir, 'vault.key')).mode & 0o777).toBe(0o600);

    const second = await testGateway({ env });
    expect((await siteCalls(second).detokenize({ token })).body.cardNumber).toBe(CARDS.ok);
  });

  it('shows a token to staff masked: bin, last four, brand, aliases — never the number', async () => {
    const t = await testGateway();
    const token = await siteCalls(t).token(CARDS.ok, { tokenAliases: { shopper: 's-1' } });
    const res = await t.gql(
      'query($t: String!) { token(token: $t) { kind bin lastFourDigits cardBrand expirationMonth expirationYear cardHolderName multiUse used networkTokenStatus aliases { key value } } }',
      { t: token },
      { token: t.adminToken },
    );
    expect(res.data.token).toEqual({
      kind: 'CARD', bin: '42424242', lastFourDigits: '4242', cardBrand: 'VISA', expirationMonth: 12, expirationYear: 2030,
      cardHolderName: 'Ada Lovelace', multiUse: false, used: false, networkTokenStatus: 'NONE', aliases: [{ key: 'shopper', value: 's-1' }],
    });
    expect(JSON.stringify(res)).not.toContain(CARDS.ok);
    expect((await t.gql('query($t: String!) { token(token: $t) { bin } }', { t: token })).errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect((await t.gql('query { token(token: "tok_unknown") { bin } }', {}, { token: t.adminToken })).data.token).toBeNull();
  });
});
