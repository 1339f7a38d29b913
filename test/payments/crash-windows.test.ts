/**
 * POST /api/payments through the crash windows (issue 14): a payment whose caller died between reserve and record,
 * or whose outcome the processor never confirmed, with no Idempotency-Key to retry by, is reconciled by the sweep;
 * a key left `processing` by a caller that died is answered retryably while its lease runs, then taken over and
 * finished — one payment, one charge. The crash is the state it leaves in the database, written here directly.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/kernel/tokens.ts';
import { canonicalJson } from '../../src/kernel/canonical-json.ts';
import { KEY_LEASE_MS } from '../../src/payments/idempotency-service.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { loadVaultKey } from '../../src/kernel/vault-key.ts';
import { createPaymentFlow, STALE_PENDING_MS } from '../../src/payments/payment-flow-service.ts';
import { createSandboxProcessor } from '../../src/payments/sandbox-processor.ts';
import { createVaultCrypto } from '../../src/payments/vault-crypto.ts';
import { PAYMENTS_POLL_MS } from '../../src/payments/reconciliation-job.ts';
import type { TestGateway } from '../support/gateway.ts';
import { card, CARDS, paymentBody, paymentsGateway, sandboxCharges, siteCalls } from './support.ts';

const payments = (t: TestGateway) => t.gateway.database.db.selectFrom('payments').selectAll().execute();

describe('a payment no caller comes back for', () => {
  it('without an Idempotency-Key, an unknown outcome is reconciled by the sweep: succeeded, CVC erased', async () => {
    const t = await paymentsGateway();
    const answer = await siteCalls(t).pay(paymentBody(CARDS.timeoutAfterCharge));
    expect(answer.status).toBe(502);
    expect((await payments(t)).map((p) => p.status)).toEqual(['unknown']);
    await t.clock.advance(PAYMENTS_POLL_MS);
    const [payment] = await payments(t);
    expect(payment!.status).toBe('succeeded');
    expect(payment!.refunded_at).toBeNull(); // a payment of /api/payments is the site's to keep or refund
    const token = await t.gateway.database.db.selectFrom('vault_tokens').select('cvc_sealed').where('token_hash', '=', payment!.token_hash!).executeTakeFirstOrThrow();
    expect(token.cvc_sealed).toBeNull();
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('a payment left pending by a caller that died between reserve and record is reconciled once it is stale', async () => {
    const t = await paymentsGateway();
    await siteCalls(t).pay(paymentBody(CARDS.timeoutAfterCharge));
    // The state a crash after the reserve commit leaves: pending, the processor possibly charged.
    await t.gateway.database.db.updateTable('payments').set({ status: 'pending', updated_at: t.clock.now() }).execute();
    await t.clock.advance(PAYMENTS_POLL_MS);
    expect((await payments(t)).map((p) => p.status)).toEqual(['pending']); // its caller may still be at it
    await t.clock.advance(STALE_PENDING_MS);
    expect((await payments(t)).map((p) => p.status)).toEqual(['succeeded']);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });
});

describe('an Idempotency-Key left processing by a caller that died', () => {
  async function deadHolder(t: TestGateway, key: string, body: unknown, paymentId: string | null = null) {
    const now = t.clock.now();
    await t.gateway.database.db
      .insertInto('idempotency_keys')
      .values({ site_id: t.siteId, idem_key: key, fingerprint: sha256Hex(canonicalJson(body)), state: 'processing', payment_id: paymentId, response_status: null, response_body: null, created_at: now, updated_at: now })
      .execute();
  }

  it('answers a repeat 503 retryable with Retry-After while the holder’s lease runs, never a final 409', async () => {
    const t = await paymentsGateway();
    const body = paymentBody();
    await deadHolder(t, 'left-behind', body);
    const answer = await siteCalls(t).pay(body, 'left-behind');
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await payments(t)).toHaveLength(0);
  });

  it('takes the key over once the lease has run out and makes the one payment', async () => {
    const t = await paymentsGateway();
    const body = paymentBody();
    await deadHolder(t, 'left-behind', body);
    await t.clock.advance(KEY_LEASE_MS + 1);
    const answer = await siteCalls(t).pay(body, 'left-behind');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.status).toBe('succeeded');
    expect((await siteCalls(t).pay(body, 'left-behind')).body).toEqual(answer.body);
    expect(await payments(t)).toHaveLength(1);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('a holder that died after reserving: the taker reconciles that payment under its own id, charging once', async () => {
    const t = await paymentsGateway();
    const body = paymentBody(CARDS.timeoutAfterCharge);
    expect((await siteCalls(t).pay(body, 'reserved')).status).toBe(502); // charged, outcome unknown
    // As if the holder had died right after its reserve: the key processing, the payment pending.
    await t.gateway.database.db.updateTable('idempotency_keys').set({ state: 'processing', updated_at: t.clock.now() }).execute();
    await t.gateway.database.db.updateTable('payments').set({ status: 'pending', updated_at: t.clock.now() }).execute();
    await t.clock.advance(KEY_LEASE_MS + 1);
    const answer = await siteCalls(t).pay(body, 'reserved');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.status).toBe('succeeded');
    expect(await payments(t)).toHaveLength(1);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });
});

describe('a pay whose caller stalled past STALE_PENDING_MS while a retry paid the order (a reviewer’s finding)', () => {
  it('the late caller’s outcome does not undo the retry’s, and the charge that paid the order is never refunded', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const token = (await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.timeoutAfterCharge), cvc: '123' })).body.token;
    expect((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token })).status).toBe(502);
    // The state of a caller stalled inside the processor call (a frozen VM, a long GC pause): reserved, pending.
    const { db } = t.gateway.database;
    await db.updateTable('payments').set({ status: 'pending', updated_at: t.clock.now() }).execute();
    const stalled = (await payments(t))[0]!;
    await t.clock.advance(STALE_PENDING_MS + 1);
    // The attendee's retry claims the stale payment, asks the processor again under its id, and pays the order.
    const retry = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token });
    expect(retry.body).toMatchObject({ status: 'received', alreadyPaid: false });

    // The stalled caller wakes up: its processor call timed out, so it would record `unknown`, and then settle.
    const { config, clock } = t.gateway;
    const flow = createPaymentFlow({ db, clock, logger: createLogger('silent'), crypto: createVaultCrypto(loadVaultKey(config)), processor: createSandboxProcessor(db, clock) });
    let settledAgain = false;
    const late = await flow.record(stalled, { status: 'unknown', chargeId: null }, async () => void (settledAgain = true));
    expect(late.recordedElsewhere).toBe(true);
    expect(settledAgain).toBe(false);
    expect((await payments(t)).map((p) => [p.status, p.refunded_at])).toEqual([['succeeded', null]]);

    // The sweep finds nothing to reconcile: the order keeps the one charge that paid it.
    await t.clock.advance(PAYMENTS_POLL_MS);
    expect((await payments(t)).map((p) => [p.status, p.refunded_at])).toEqual([['succeeded', null]]);
    expect((await sandboxCharges(t)).map((c) => Number(c.refunded_amount))).toEqual([0]);
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status).toBe('received');
  });
});
