/**
 * POST /api/payments (document 3 §2, docs/platform.md#payments): the 201 body, field errors, basic auth, each Idempotency-Key
 * rule (10 concurrent requests with one key make one payment), every sandbox card, sandbox decisions, and an
 * unknown outcome reconciled on retry without a second charge.
 */
import { describe, expect, it } from 'vitest';
import { card, CARDS, paymentBody, paymentsGateway, sandboxCharges, siteCalls } from './support.ts';
import type { TestGateway } from '../support/gateway.ts';
import { canonicalJson } from '../../src/kernel/canonical-json.ts';
import { sha256Hex } from '../../src/kernel/tokens.ts';

const paymentCount = async (t: TestGateway) =>
  (await t.gateway.database.db.selectFrom('payments').select('id').execute()).length;

describe('POST /api/payments', () => {
  it('answers 201 with docs/platform.md#payments, amount in cents, and the payment is readable by staff', async () => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(paymentBody(CARDS.ok, { currency: 'usd' }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['amount', 'createdAt', 'currency', 'decision', 'id', 'orderId', 'status'].sort());
    expect(res.body).toMatchObject({ orderId: 'order-1', amount: 1999, currency: 'USD', status: 'succeeded', decision: 'APPROVE' });
    expect(new Date(res.body.createdAt).getTime()).toBe(t.clock.now());
    const staff = await t.gql('query($id: ID!) { payment(id: $id) { id amount status method orderId card { bin lastFourDigits cardBrand } } }', { id: res.body.id }, { token: t.adminToken });
    expect(staff.data.payment).toEqual({ id: res.body.id, amount: 1999, status: 'SUCCEEDED', method: 'CARD', orderId: 'order-1', card: { bin: '42424242', lastFourDigits: '4242', cardBrand: 'VISA' } });
    expect((await t.gql('query($id: ID!) { payment(id: $id) { id } }', { id: res.body.id })).errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect(await t.gateway.services.payments.find(res.body.id)).toMatchObject({ id: res.body.id, status: 'succeeded' });
  });

  it('takes every documented field', async () => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(
      paymentBody(CARDS.ok, {
        captureMethod: 'automatic',
        channel: 'web',
        connectionInformation: { customerIP: '203.0.113.9' },
        browserInfo: { userAgent: 'test' },
        cartItems: [{ name: 'Sleeve', price: 1999, quantity: 1, type: 'physical' }],
        shipping: { address: { country: 'US' }, deliveryMethod: 'pickup', deliveryType: 'standard', savedData: {} },
        billing: { address: { country: 'US' } },
        accountInfo: { customerEngagement: { wishlist: {}, reviewsWritten: {}, newsletters: {} } },
        tax: {},
        discounts: [{ code: 'NONE', amount: 0 }],
      }),
    );
    expect(res.status).toBe(201);
  });

  it('answers 400 with every failing field in the platform error body', async () => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay({ amount: 10.5, currency: 'dollars', cartItems: {}, paymentMethod: { type: 'card', card: { number: '4242424242424241', expirationMonth: 13, expirationYear: 2030, holderName: '' } } });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'orderId', 'amount', 'currency', 'cartItems', 'paymentMethod.card.number', 'paymentMethod.card.expirationMonth', 'paymentMethod.card.holderName',
    ]);
    expect(JSON.stringify(res.body)).not.toContain('4242424242424241');
    expect((await siteCalls(t).pay({ ...paymentBody(), paymentMethod: { type: 'cash' } })).body.errors).toEqual([{ field: 'paymentMethod.type', message: expect.any(String) }]);
    expect((await t.rest('POST', '/api/payments', '{nope', siteCalls(t).auth)).status).toBe(400);
    expect(await paymentCount(t)).toBe(0);
  });

  it("checks the members document 3 types inside cartItems, customer, discounts and the rest: 400 naming each, nothing charged", async () => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(
      paymentBody(CARDS.ok, {
        cartItems: [{ name: 'Sleeve', price: 1999, quantity: 1, type: 'physical' }, { name: 'x', price: '19.99', quantity: 1, type: 't' }],
        discounts: [{ code: 'x', amount: '1' }],
        customer: { email: 5, firstName: 'Ada' },
        connectionInformation: { customerIP: 127 },
        shipping: { address: 'somewhere', savedData: {} },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'connectionInformation.customerIP', 'cartItems[1].price', 'shipping.address', 'customer.email', 'discounts[0].amount',
    ]);
    expect(await paymentCount(t)).toBe(0);
    // A member the table gives no type (an address's country), or one it does not list, is kept as sent.
    const kept = await siteCalls(t).pay(paymentBody(CARDS.ok, { billing: { address: { country: { code: 'US' } } }, customer: { email: 'ada@example.com', middleName: 7 } }));
    expect(kept.status).toBe(201);
  });

  it('refuses a card whose expiry month has passed, 400 naming the field, and charges nothing; the month itself still pays', async () => {
    const t = await paymentsGateway(); // the clock reads 22 November 2026, UTC
    const expired = (month: number, year: number) =>
      paymentBody(CARDS.ok, { paymentMethod: { type: 'card', card: { number: CARDS.ok, expirationMonth: month, expirationYear: year, holderName: 'Ada Lovelace', cvc: '123' } } });
    for (const [month, year] of [[1, 2020], [10, 2026]] as const) {
      const res = await siteCalls(t).pay(expired(month, year));
      expect(res.status, `${month}/${year}`).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'paymentMethod.card.expirationYear', message: expect.stringMatching(/expired/u) }]);
    }
    expect(await paymentCount(t)).toBe(0);
    expect(await sandboxCharges(t)).toHaveLength(0);
    expect((await siteCalls(t).pay(expired(11, 2026))).status).toBe(201);
  });

  it('refuses a token whose card has expired until the account updater renews it, and charges nothing meanwhile', async () => {
    const t = await paymentsGateway(); // 22 November 2026
    const calls = siteCalls(t);
    const token = await calls.token(CARDS.ok, { expirationMonth: 10, expirationYear: 2026 });
    const byToken = paymentBody(CARDS.ok, { paymentMethod: { type: 'card', token } });
    const refused = await calls.pay(byToken);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'paymentMethod.token', message: expect.stringMatching(/expired/u) }]);
    expect(await sandboxCharges(t)).toHaveLength(0);
    expect((await calls.updateCard(card(CARDS.ok, { expirationMonth: 10, expirationYear: 2029 }))).status).toBe(200);
    expect((await calls.pay(byToken)).status).toBe(201);
  });

  it('refuses a card and a token together rather than choosing one of them, and charges nothing', async () => {
    const t = await paymentsGateway();
    const calls = siteCalls(t);
    const token = await calls.token(CARDS.ok);
    const both = paymentBody(CARDS.ok, { paymentMethod: { ...paymentBody().paymentMethod, token } });
    const res = await calls.pay(both);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'paymentMethod', message: expect.stringMatching(/either/u) }]);
    expect(await sandboxCharges(t)).toHaveLength(0);
    expect((await calls.pay(paymentBody(CARDS.ok, { paymentMethod: { type: 'card', token } }))).status).toBe(201);
  });

  it('says "required" only for a field that is absent, and what was sent for one of the wrong type', async () => {
    const t = await paymentsGateway();
    const message = async (body: Record<string, unknown>, field: string) =>
      ((await siteCalls(t).pay(body)).body.errors as Array<{ field: string; message: string }>).find((e) => e.field === field)?.message;
    expect(await message({ ...paymentBody(), amount: '2000' }, 'amount')).toBe("amount must be a positive whole number of the currency's minor units (cents for USD, yen for JPY); it was a string.");
    expect(await message({ ...paymentBody(), amount: 10.5 }, 'amount')).toMatch(/^amount must be .*; it was the number 10.5\.$/u);
    expect(await message({ ...paymentBody(), currency: 840 }, 'currency')).toMatch(/^currency must be .*; it was the number 840\.$/u);
    // Three letters that are no currency (a typo) are refused too.
    expect(await message({ ...paymentBody(), currency: 'uss' }, 'currency')).toBe('currency must be an ISO 4217 currency code such as USD or EUR; USS is not one.');
    expect(await message({ ...paymentBody(), paymentMethod: ['card'] }, 'paymentMethod')).toMatch(/it was an array\.$/u);
    const cardAsNumbers = { ...paymentBody(), paymentMethod: { type: 'card', card: { ...(paymentBody().paymentMethod as { card: object }).card, number: 4242424242424242 } } };
    expect(await message(cardAsNumbers, 'paymentMethod.card.number')).toBe('paymentMethod.card.number must be a string of digits; it was a number.');
    const { amount: _absent, ...withoutAmount } = paymentBody();
    expect(await message(withoutAmount, 'amount')).toMatch(/^amount is required: /u);
    expect(await paymentCount(t)).toBe(0);
  });

  it.each([
    [CARDS.ok, 'succeeded', 1],
    [CARDS.mastercard, 'succeeded', 1],
    [CARDS.declined, 'declined', 1],
    [CARDS.processorError, 'failed', 0],
  ])('card %s: %s', async (number, status, charges) => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(paymentBody(number));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(status);
    expect((await sandboxCharges(t)).filter((c) => c.outcome === 'succeeded')).toHaveLength(status === 'succeeded' ? charges : 0);
  });

  it.each([
    ['approve@vendor.test', 'APPROVE', 'succeeded'],
    ['decline@vendor.test', 'DECLINE', 'declined'],
    ['review@vendor.test', 'NOT_REVIEWED', 'succeeded'],
    ['Verify@Vendor.test', 'VERIFICATION_REQUIRED', 'succeeded'],
  ])('sandbox email %s decides %s; only DECLINE leaves the card uncharged', async (email, decision, status) => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(paymentBody(CARDS.ok, { customer: { email } }));
    expect(res.body).toMatchObject({ decision, status });
    expect(await sandboxCharges(t)).toHaveLength(status === 'succeeded' ? 1 : 0);
  });

  // Names an object has of its own prototype: a 500 before (the sandbox table was a plain object).
  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('the email %s is no sandbox address: approved and charged', async (email) => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).pay(paymentBody(CARDS.ok, { customer: { email } }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ decision: 'APPROVE', status: 'succeeded' });
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('pays with a sandbox wallet confirmation, once', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const wallet = await t.rest('POST', '/v1/sandbox/wallet-confirmation', {}, api.auth);
    const body = paymentBody(CARDS.ok, { paymentMethod: { type: 'wallet', token: wallet.body.token } });
    expect((await api.pay(body)).body.status).toBe('succeeded');
    expect((await api.pay(body)).status).toBe(400);
    expect((await api.pay(paymentBody(CARDS.ok, { paymentMethod: { type: 'wallet' } }))).body.errors[0].field).toBe('paymentMethod.token');
  });
});

describe('Idempotency-Key (docs/platform.md#idempotency-keys)', () => {
  it('replays the first response, status and body, for the same key and body — in any key order', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const first = await api.pay(paymentBody(), 'key-1');
    await t.clock.jump(23 * 3600_000);
    const { paymentMethod, ...rest } = paymentBody();
    const again = await api.pay({ paymentMethod, ...Object.fromEntries(Object.entries(rest).reverse()) }, 'key-1');
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(await paymentCount(t)).toBe(1);
    expect(await sandboxCharges(t)).toHaveLength(1);
    // A declined first answer is replayed as well.
    const declined = await api.pay(paymentBody(CARDS.declined), 'key-2');
    expect((await api.pay(paymentBody(CARDS.declined), 'key-2')).body).toEqual(declined.body);
  });

  it('records the body only as a keyed digest, which a copy of the database cannot test card guesses against', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const body = paymentBody();
    const first = await api.pay(body, 'digest');
    const db = t.gateway.database.db;
    const row = await db.selectFrom('idempotency_keys').select('fingerprint').where('idem_key', '=', 'digest').executeTakeFirstOrThrow();
    // A plain SHA-256 of the body (what was stored before) could be recomputed from a guessed number and CVC.
    expect(row.fingerprint).not.toBe(sha256Hex(canonicalJson(body)));
    expect(row.fingerprint).toMatch(/^k1:[\w-]{43}$/u);
    expect((await api.pay(body, 'digest')).body).toEqual(first.body);
    expect((await api.pay(paymentBody(CARDS.ok, { amount: 2000 }), 'digest')).status).toBe(400);
    // A key stored in the old format before an upgrade still replays its body, and still refuses another.
    await db.updateTable('idempotency_keys').set({ fingerprint: sha256Hex(canonicalJson(body)) }).where('idem_key', '=', 'digest').execute();
    expect((await api.pay(body, 'digest')).body).toEqual(first.body);
    expect((await api.pay(paymentBody(CARDS.ok, { amount: 2000 }), 'digest')).status).toBe(400);
    expect(await paymentCount(t)).toBe(1);
  });

  it('keeps a key at least 24 hours', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const first = await api.pay(paymentBody(), 'kept');
    await t.clock.jump(24 * 3600_000 + 1);
    expect((await api.pay(paymentBody(), 'kept')).body.id).toBe(first.body.id);
  });

  it('answers 400 for the same key with another body, and creates nothing', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    await api.pay(paymentBody(), 'key-1');
    const other = await api.pay(paymentBody(CARDS.ok, { amount: 2000 }), 'key-1');
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ status: 'error', errors: [{ field: 'Idempotency-Key' }] });
    expect(await paymentCount(t)).toBe(1);
  });

  it('scopes keys by site: another site may use the same key', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const merchant = await t.rest('POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Shop' }, { ...api.auth, 'api-version': '10.3', 'x-vendor-siteid': t.siteId });
    const other = { authorization: `Basic ${Buffer.from(`${merchant.body.id}:${merchant.body.apiKey}`).toString('base64')}`, 'idempotency-key': 'shared' };
    const a = await api.pay(paymentBody(), 'shared');
    const b = await t.rest('POST', '/api/payments', paymentBody(), other);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('makes one payment for 10 concurrent requests with one key, and all 10 see its response', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.pay(paymentBody(), 'concurrent')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await paymentCount(t)).toBe(1);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('reconciles an unknown outcome on retry with the same key: 502 payment_unknown, then 201 succeeded, one charge', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const first = await api.pay(paymentBody(CARDS.timeoutAfterCharge), 'slow');
    expect(first.status).toBe(502);
    expect(first.body.status).toBe('error');
    const retry = await api.pay(paymentBody(CARDS.timeoutAfterCharge), 'slow');
    expect(retry.status).toBe(201);
    expect(retry.body.status).toBe('succeeded');
    expect((await api.pay(paymentBody(CARDS.timeoutAfterCharge), 'slow')).body).toEqual(retry.body);
    expect(await paymentCount(t)).toBe(1);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('refuses an over-long key', async () => {
    const t = await paymentsGateway();
    expect((await siteCalls(t).pay(paymentBody(), 'k'.repeat(256))).status).toBe(400);
  });
});

describe('refunds', () => {
  it('staff refund a succeeded payment once through refundPayment', async () => {
    const t = await paymentsGateway();
    const paid = await siteCalls(t).pay(paymentBody());
    const refund = 'mutation($id: ID!) { refundPayment(id: $id) { status refundedAt } }';
    const first = await t.gql(refund, { id: paid.body.id }, { token: t.adminToken });
    expect(first.data.refundPayment.refundedAt).not.toBeNull();
    const again = await t.gql(refund, { id: paid.body.id }, { token: t.adminToken });
    expect(again.data.refundPayment.refundedAt).toBe(first.data.refundPayment.refundedAt);
    expect((await sandboxCharges(t))[0]!.refunded_amount).toBe(1999);
    expect((await t.gql(refund, { id: paid.body.id })).errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });
});
