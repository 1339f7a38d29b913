/**
 * Shared helpers of the payments suites: a gateway whose logs are captured (and checked after each file: no test
 * card number, nothing the logger had to scrub), test cards, site-authenticated calls, outbox and ledger reads.
 */
import { expect } from 'vitest';
import type { Insertable } from 'kysely';
import { createLogger } from '../../src/kernel/logger.ts';
import type { VaultTokenTable } from '../../src/payments/payment-tables.ts';
import type { VaultCrypto } from '../../src/payments/vault-crypto.ts';
import { bodyToSend } from '../../src/notifications/sealed-body.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { afterThisFile } from '../support/leftovers.ts';

/** docs/platform.md#sandbox-processor, and two ordinary Luhn-valid numbers. */
export const CARDS = {
  ok: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  processorError: '4000000000000119',
  timeoutAfterCharge: '4000000000000259',
} as const;

export const ALL_TEST_NUMBERS = Object.values(CARDS);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/giu;

/**
 * Whether a CVC shows in log text, ids aside: three or four digits turn up in random hex now and then (a run once
 * failed on pay_…-9989ffc99731 against the CVC 9731), and an id is never where a CVC could leak.
 */
export const showsCvc = (log: string, cvc: string): boolean => log.replace(UUID, '').includes(cvc);

const captured: string[] = [];

/** testGateway with every log line (debug and up) kept for the check after its file. */
export function paymentsGateway(options: Parameters<typeof testGateway>[0] = {}): Promise<TestGateway> {
  afterThisFile(checkCapturedLogs);
  return testGateway({ logger: createLogger('debug', (line) => captured.push(line)), ...options });
}

/** After a file: no test card number in any line its gateways logged, and nothing the logger had to scrub. */
function checkCapturedLogs(): void {
  const log = captured.splice(0).join('\n');
  for (const number of ALL_TEST_NUMBERS) expect(log).not.toContain(number);
  expect(log).not.toContain('[redacted-number]');
}

export const card = (cardNumber: string = CARDS.ok, change: Record<string, unknown> = {}) => ({
  cardNumber,
  expirationMonth: 12,
  expirationYear: 2030,
  cardHolderName: 'Ada Lovelace',
  ...change,
});

export function siteCalls(t: TestGateway) {
  const auth = { authorization: t.siteAuthorization };
  return {
    auth,
    tokenize: (body: unknown) => t.rest('POST', '/v1/tokenization/tokenize', body, auth),
    detokenize: (body: unknown) => t.rest('POST', '/v1/tokenization/detokenize', body, auth),
    upgrade: (body: unknown) => t.rest('POST', '/v1/tokenization/upgrade', body, auth),
    updateCard: (body: unknown) => t.rest('POST', '/v1/account-updater/card/update', body, auth),
    pay: (body: unknown, key?: string) => t.rest('POST', '/api/payments', body, key === undefined ? auth : { ...auth, 'idempotency-key': key }),
    async token(cardNumber: string = CARDS.ok, change: Record<string, unknown> = {}): Promise<string> {
      const res = await t.rest('POST', '/v1/tokenization/tokenize', card(cardNumber, change), auth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.token as string;
    },
  };
}

/** A /api/payments body paying `amount` cents with the card number given inline. */
export const paymentBody = (cardNumber: string = CARDS.ok, change: Record<string, unknown> = {}) => ({
  orderId: 'order-1',
  amount: 1999,
  currency: 'USD',
  customer: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
  paymentMethod: { type: 'card', card: { number: cardNumber, expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' } },
  ...change,
});

export async function sandboxCharges(t: TestGateway) {
  return t.gateway.database.db.selectFrom('sandbox_charges').selectAll().execute();
}

/** Queued notifications: `subject` as stored (a token masked), `body` opened as the dispatcher will send it (docs/notifications.md#secrets-in-the-outbox). */
export async function outbox(t: TestGateway, path = '/token-updated') {
  const rows = await t.gateway.database.db.selectFrom('outbox_notifications').selectAll().where('path', '=', path).orderBy('created_at').execute();
  return rows.map((r) => ({ subject: r.subject, body: JSON.parse(bodyToSend(r.body)) as Record<string, any> }));
}

/**
 * A vault row as an upgrade provisioned it before migration 0011 (or an older instance still does): the card data
 * sealed by `crypto`, the network token in its own column, in the clear.
 */
export function legacyTokenRow(v: { tokenHash: string; token: string; networkToken: string; crypto: VaultCrypto; siteId: string | null; now: number }): Insertable<VaultTokenTable> {
  return {
    token_hash: v.tokenHash, kind: 'card', site_id: v.siteId, order_number: null,
    sealed: v.crypto.seal(JSON.stringify({ token: v.token, cardNumber: CARDS.ok, cardHolderName: 'Ada Lovelace' })), fingerprint: v.crypto.fingerprint(CARDS.ok),
    bin: '42424242', last_four: '4242', brand: 'VISA', exp_month: 12, exp_year: 2030, cvc_sealed: null, extra: null, customer_id: null,
    multi_use: 1, used_by_payment: null, network_token_status: 'ACTIVE', network_token_due: null, network_token: v.networkToken,
    network_token_par: 'PAR0LEGACY0000000000000000000', network_token_exp_month: 6, network_token_exp_year: 2029, created_at: v.now, updated_at: v.now,
  };
}
