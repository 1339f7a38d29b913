/**
 * Money raced across two real instances on one PostgreSQL schema and one Redis (issue 14): concurrent pay retries
 * after `payment_unknown`, and concurrent card updates of one card. Each asserts the end state in the database —
 * charges against payments against refunds, the vault against the merchant's last notification — not just answers.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both); says so when skipped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createDatabase, type AppDatabase } from '../../src/db/database.ts';
import { hashToken } from '../../src/kernel/tokens.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { postJson, startInstances } from '../support/instances.ts';
import type { ServerProcess } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const SITE = { VENDOR_SITE_ID: 'race-site', VENDOR_API_KEY: 'race-site-key' };
const SITE_AUTH = `Basic ${Buffer.from(`${SITE.VENDOR_SITE_ID}:${SITE.VENDOR_API_KEY}`).toString('base64')}`;
const TIMEOUT_AFTER_CHARGE = '4000000000000259';

interface Instances {
  a: ServerProcess;
  b: ServerProcess;
  /** The shared database, read directly to check the end state. */
  database: AppDatabase;
}

async function twoInstances(extra: Record<string, string> = {}): Promise<Instances> {
  const { processes, env } = await startInstances('race', { ...SITE, ADMIN_TOKEN: 'race-admin', RATE_LIMIT_READ: '100000', RATE_LIMIT_WRITE: '100000', ...extra });
  const database = await createDatabase({ kind: 'postgres', url: env.DATABASE_URL! });
  afterThisTest(() => database.destroy());
  return { a: processes[0]!, b: processes[1]!, database };
}

const post = postJson;

const cardFields = (cardNumber: string, expirationMonth = 12, expirationYear = 2030) => ({ cardNumber, expirationMonth, expirationYear, cardHolderName: 'Ada Lovelace' });

describe.skipIf(!DATABASE || !REDIS)(
  `money raced on two instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('two pay retries after payment_unknown, one on each instance: every order is paid by its one charge, none refunded', async () => {
      const { a, b, database } = await twoInstances();
      const orders: Array<{ orderNumber: string; payToken: string; token: string }> = [];
      for (let i = 0; i < 40; i++) {
        const created = await post(a.url, '/api/orders', { ...VALID_ORDER, email: `race${i}@example.com` });
        const { orderNumber, payToken } = created.body;
        const token = await post(a.url, `/api/orders/${orderNumber}/card-token`, { t: payToken, ...cardFields(TIMEOUT_AFTER_CHARGE), cvc: '123' });
        const first = await post(a.url, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: token.body.token });
        expect(first.body.code).toBe('payment_unknown');
        orders.push({ orderNumber, payToken, token: token.body.token });
      }
      // The retries race: both instances at once, for every order.
      const answers = await Promise.all(
        orders.flatMap(({ orderNumber, payToken, token }) =>
          [a, b].map((instance) => post(instance.url, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token })),
        ),
      );
      for (const answer of answers) {
        // Paid, or told to retry while the other instance reconciles: never an error that loses the payment.
        expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 503) expect(answer.body.retryable).toBe(true);
      }
      const { db } = database;
      for (const { orderNumber } of orders) {
        const order = await db.selectFrom('orders').select('status').where('order_number', '=', Number(orderNumber)).executeTakeFirstOrThrow();
        expect(order.status, `order ${orderNumber}`).toBe('received');
        const payments = await db.selectFrom('payments').selectAll().where('order_number', '=', Number(orderNumber)).execute();
        expect(payments.map((p) => [p.status, p.refunded_at]), `order ${orderNumber}`).toEqual([['succeeded', null]]);
        const charges = await db.selectFrom('sandbox_charges').selectAll().where('idem_key', '=', payments[0]!.id).execute();
        expect(charges.map((c) => [c.outcome, Number(c.refunded_amount)]), `order ${orderNumber}`).toEqual([['succeeded', 0]]);
      }
    });

    it('two first pays of one order at once, one on each instance with its own card: one charge, nothing refunded', async () => {
      const { a, b, database } = await twoInstances();
      const orders: Array<{ orderNumber: string; payToken: string; tokens: string[] }> = [];
      for (let i = 0; i < 20; i++) {
        const { orderNumber, payToken } = (await post(a.url, '/api/orders', { ...VALID_ORDER, email: `first${i}@example.com` })).body;
        const tokens: string[] = [];
        for (const instance of [a, b]) {
          tokens.push((await post(instance.url, `/api/orders/${orderNumber}/card-token`, { t: payToken, ...cardFields('4242424242424242'), cvc: '123' })).body.token);
        }
        orders.push({ orderNumber, payToken, tokens });
      }
      const answers = await Promise.all(
        orders.flatMap(({ orderNumber, payToken, tokens }) =>
          [a, b].map((instance, i) => post(instance.url, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: tokens[i] })),
        ),
      );
      // Paid (by this pay or the other), or told to try again while the other is in flight.
      for (const answer of answers) expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
      const { db } = database;
      for (const { orderNumber } of orders) {
        const payments = await db.selectFrom('payments').select(['id', 'status', 'refunded_at']).where('order_number', '=', Number(orderNumber)).execute();
        expect(payments.map((p) => [p.status, p.refunded_at]), `order ${orderNumber}`).toEqual([['succeeded', null]]);
        const charges = await db.selectFrom('sandbox_charges').select('outcome').where('idem_key', 'in', payments.map((p) => p.id)).execute();
        expect(charges.length, `order ${orderNumber}`).toBe(1);
      }
    });

    it('a payment started on one instance just before the hold ends: the other instance’s sweep leaves the order to it, and the retry there pays it', async () => {
      const { a, b, database } = await twoInstances({ HOLD_SECONDS: '6' });
      const created = await post(a.url, '/api/orders', { ...VALID_ORDER, email: 'late@example.com' });
      const { orderNumber, payToken } = created.body;
      const holdUntil = Date.parse(created.body.holdUntil);
      const token = (await post(a.url, `/api/orders/${orderNumber}/card-token`, { t: payToken, ...cardFields(TIMEOUT_AFTER_CHARGE), cvc: '123' })).body.token;
      await sleep(holdUntil - 1_500 - Date.now());
      const first = await post(a.url, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token });
      expect(first.body.code, JSON.stringify(first.body)).toBe('payment_unknown');
      await sleep(holdUntil + 1_500 - Date.now()); // both instances' sweepers have passed holdUntil
      const { db } = database;
      const status = async () => (await db.selectFrom('orders').select('status').where('order_number', '=', Number(orderNumber)).executeTakeFirstOrThrow()).status;
      expect(await status()).toBe('awaiting payment');
      const retry = await post(b.url, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(await status()).toBe('received');
      const payments = await db.selectFrom('payments').selectAll().where('order_number', '=', Number(orderNumber)).execute();
      expect(payments.map((p) => [p.status, p.refunded_at])).toEqual([['succeeded', null]]);
    });

    it('concurrent card updates of one card on both instances: the merchant’s last /token-updated says what the vault holds', async () => {
      const receiver = await startReceiver();
      const { a, b, database } = await twoInstances({ MERCHANT_ENDPOINT: receiver.url });
      const cards: string[] = [];
      for (let i = 0; i < 15; i++) {
        // Luhn-valid numbers of one card each: 4242 4242 4242 42xy with a check digit.
        const number = luhnComplete(`4242424242${String(100000 + i).slice(1)}`);
        const tokenized = await post(a.url, '/v1/tokenization/tokenize', cardFields(number), { authorization: SITE_AUTH });
        expect(tokenized.status, JSON.stringify(tokenized.body)).toBe(200);
        cards.push(number);
      }
      // To 03/31 on A and back to 12/30 on B, at once, for every card: one of them commits last.
      await Promise.all(
        cards.flatMap((number) => [
          post(a.url, '/v1/account-updater/card/update', cardFields(number, 3, 2031), { authorization: SITE_AUTH }),
          post(b.url, '/v1/account-updater/card/update', cardFields(number, 12, 2030), { authorization: SITE_AUTH }),
        ]),
      );
      const { db } = database;
      const tokens = await db.selectFrom('vault_tokens').select(['token_hash', 'exp_month', 'exp_year']).where('site_id', '=', SITE.VENDOR_SITE_ID).execute();
      expect(tokens).toHaveLength(cards.length);
      // What the merchant was told: every /token-updated queued, once delivered.
      const queued = await db.selectFrom('outbox_notifications').select('id').where('path', '=', '/token-updated').execute();
      for (let waited = 0; receiver.distinct().length < queued.length && waited < 15_000; waited += 100) await sleep(100);
      expect(receiver.distinct()).toHaveLength(queued.length);
      let mismatched = 0;
      for (const token of tokens) {
        // The merchant's last word on a token is its latest notification; it must say what the vault holds.
        const told = receiver
          .distinct()
          .map((r) => r.body)
          .filter((body) => hashToken(body.token) === token.token_hash)
          .sort((x, y) => Number(x.timestamp) - Number(y.timestamp));
        const vault = `${String(token.exp_month).padStart(2, '0')}${String(token.exp_year).slice(2)}`;
        const last = told.length === 0 ? '1230' : (told.at(-1)!.card.expiration as string);
        if (last !== vault) mismatched++;
      }
      expect(mismatched, 'cards whose vault state differs from the last notification sent').toBe(0);
    });
  },
);

function luhnComplete(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return partial + String((10 - (sum % 10)) % 10);
}
