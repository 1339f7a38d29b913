/**
 * POST /api/orders/{orderNumber}/pay on the REST door (document 1 §2-§4, docs/ordering.md#paying): the demo card, idempotent
 * and concurrent payment, method rules, wrong tokens and paying after the hold ended.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { countOrderPayments } from '../../src/orders/order-repository.ts';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

const create = (change?: Record<string, unknown>) => t.createOrder(change);

function pay(orderNumber: string, body: unknown) {
  return t.rest('POST', `/api/orders/${orderNumber}/pay`, body);
}

function lookup(orderNumber: string, token: string) {
  return t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(token)}`);
}

const payments = (orderNumber: number) => countOrderPayments(t.gateway.database.db, orderNumber);

describe('paying with the demo card (vendor_card)', () => {
  it('answers 200 with status received, alreadyPaid false and texts', async () => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(res.body).toMatchObject({ ok: true, orderNumber: '1001', status: 'received', alreadyPaid: false });
    expect(res.body.message.trim().length).toBeGreaterThan(0);
    expect(res.body.nextAction.trim().length).toBeGreaterThan(0);
    expect(await payments(1001)).toBe(1);
  });

  it('answers a second pay with 200 alreadyPaid true and records no second payment', async () => {
    const { orderNumber, payToken } = await create();
    await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    const again = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ok: true, orderNumber: '1001', status: 'received', alreadyPaid: true });
    expect(again.body.nextAction).toMatch(/do not pay again/iu);
    expect(await payments(1001)).toBe(1);
  });

  it('pays once when 20 pays of one order run at the same time', async () => {
    const { orderNumber, payToken } = await create();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => pay(orderNumber, { t: payToken, method: 'vendor_card' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.body.alreadyPaid === false)).toHaveLength(1);
    expect(results.filter((r) => r.body.alreadyPaid === true)).toHaveLength(19);
    for (const r of results) expect(r.body.status).toBe('received');
    expect(await payments(1001)).toBe(1);
  });

  it('accepts the payToken returned by a duplicate', async () => {
    await create();
    const dup = await t.rest('POST', '/api/orders', VALID_ORDER);
    expect(dup.status).toBe(409);
    const res = await pay('1001', { t: dup.body.payToken, method: 'vendor_card' });
    expect(res.status).toBe(200);
    expect(res.body.alreadyPaid).toBe(false);
  });

  it('pays one second before the hold ends', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(299_000);
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('received');
    // Paid orders are not cancelled when the hold time passes.
    await t.clock.advance(10_000);
    expect((await lookup(orderNumber, payToken)).body.status).toBe('received');
  });
});

describe('method rules (docs/ordering.md#paying)', () => {
  it('refuses vendor_card with a token: 400 bad_request, field token, and the order stays payable', async () => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card', token: 'tok_123' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', field: 'token', retryable: false });
    expect((await lookup(orderNumber, payToken)).body.status).toBe('awaiting payment');
    expect(await payments(1001)).toBe(0);
    expect((await pay(orderNumber, { t: payToken, method: 'vendor_card' })).status).toBe(200);
  });

  it.each(['card', 'wallet'])('refuses %s without a token: 400 bad_request, field token', async (method) => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken, method });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', field: 'token', retryable: false });
    expect(await payments(1001)).toBe(0);
  });

  it.each(['bitcoin', 'forter_card', 'VENDOR_CARD', 7])('refuses the unknown method %j: 400 bad_request, field method', async (method) => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken, method });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', field: 'method', retryable: false });
  });

  it('refuses a missing method: 400, field method', async () => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', field: 'method', retryable: false });
  });

  it('refuses a missing t: 400, field t', async () => {
    const { orderNumber } = await create();
    const res = await pay(orderNumber, { method: 'vendor_card' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', field: 't', retryable: false });
  });

  it('refuses a body that is not JSON or is an array: 400', async () => {
    const { orderNumber, payToken } = await create();
    for (const body of ['{t:', JSON.stringify([{ t: payToken, method: 'vendor_card' }])]) {
      const res = await pay(orderNumber, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, code: 'bad_request', retryable: false });
    }
    expect(await payments(1001)).toBe(0);
  });

  it('ignores unknown extra fields in the pay body', async () => {
    const { orderNumber, payToken } = await create();
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card', amount: 0, currency: 'EUR' });
    expect(res.status).toBe(200);
  });
});

describe('wrong tokens and unknown orders on pay (docs/ordering.md#pay-tokens)', () => {
  it('answers a wrong token, another order’s token and an unknown order with the identical 404 body', async () => {
    const a = await create();
    const b = await create({ email: 'bob@example.com' });
    const unknown = await pay('9999', { t: a.payToken, method: 'vendor_card' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });

    const wrong = await pay(a.orderNumber, { t: 'not-the-token', method: 'vendor_card' });
    const other = await pay(a.orderNumber, { t: b.payToken, method: 'vendor_card' });
    const empty = await pay(a.orderNumber, { t: '', method: 'vendor_card' });
    for (const res of [wrong, other, empty]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    }
    expect((await lookup(a.orderNumber, a.payToken)).body.status).toBe('awaiting payment');
    expect(await payments(1001)).toBe(0);
  });

  it('answers 404 not_found to a non-digit order number', async () => {
    const { payToken } = await create();
    for (const path of ['abc', '1001a', '-1001', '10.01']) {
      const res = await pay(path, { t: payToken, method: 'vendor_card' });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('keeps accepting the payToken after payment (pay again is alreadyPaid)', async () => {
    const { orderNumber, payToken } = await create();
    await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(200);
    expect(res.body.alreadyPaid).toBe(true);
  });
});

describe('paying after the hold ended', () => {
  it('says the hold the order had (HOLD_SECONDS) in its message, and document 1\'s reason as document 1 words it', async () => {
    const short = await testGateway({ env: { HOLD_SECONDS: '90' } });
    const created = (await short.rest('POST', '/api/orders', VALID_ORDER)).body;
    await short.clock.advance(91_000);
    const lookup = await short.rest('GET', `/api/orders/${created.orderNumber}?t=${created.payToken}`);
    expect(lookup.body).toMatchObject({ status: 'cancelled', reason: 'not paid within 5 minutes' });
    expect(lookup.body.message).toBe(`Order ${created.orderNumber} was cancelled because it was not paid within 90 seconds.`);
  });

  it('answers 409 cancelled with reason "not paid within 5 minutes"', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(300_000);
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ ok: false, code: 'cancelled', reason: 'not paid within 5 minutes', retryable: false });
    // The sentence every door shows says what to do next, and it is true: the email is free for a new order.
    expect(res.body.error).toMatch(/place a new order \(the same email may be used\)/u);
    expect(await payments(1001)).toBe(0);
    expect((await create()).orderNumber).not.toBe(orderNumber);
  });

  it('leaves the order stored cancelled, its end published once (by the pay or the hold timer), and no payment', async () => {
    // Listened to from before the order exists: with Redis the events arrive later than the answers, in order.
    const changes: Array<{ orderNumber: string; status: string; change: string }> = [];
    const unlisten = t.gateway.bus.listen('orderChanged', ({ orderNumber, status, change }) => changes.push({ orderNumber, status, change }));
    await t.gateway.bus.subscribed();
    const { orderNumber, payToken } = await create();
    await t.clock.advance(300_000);
    expect((await pay(orderNumber, { t: payToken, method: 'vendor_card' })).status).toBe(409);
    // A later order's creation, published after everything above: once it is here, all of 1001's are.
    await create({ email: 'later@example.com' });
    await expect.poll(() => changes.some((c) => c.orderNumber === '1002')).toBe(true);
    unlisten();
    expect(changes.filter((c) => c.orderNumber === '1001')).toEqual([
      { orderNumber: '1001', status: 'awaiting payment', change: 'created' },
      { orderNumber: '1001', status: 'cancelled', change: 'expired' },
    ]);
    const stored = await t.gateway.database.db.selectFrom('orders').select(['status', 'cancel_reason']).where('order_number', '=', 1001).executeTakeFirst();
    expect(stored).toEqual({ status: 'cancelled', cancel_reason: 'not paid within 5 minutes' });
    expect(await payments(1001)).toBe(0);
  });

  it('answers 409 cancelled with reason even long after the hold ended', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(3_600_000);
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('not paid within 5 minutes');
  });

  it('answers 409 cancelled without a reason when staff cancelled the order', async () => {
    const { orderNumber, payToken } = await create();
    const { db } = t.gateway.database;
    await db.updateTable('orders').set({ status: 'cancelled', cancel_reason: 'thread ran out', email_key: null }).execute();
    const res = await pay(orderNumber, { t: payToken, method: 'vendor_card' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('cancelled');
    expect(res.body).not.toHaveProperty('reason');
  });
});

describe('rate limiting of pay', () => {
  it('answers 429 rate_limited with Retry-After past RATE_LIMIT_WRITE pays that open nothing; the owner is not in that count', async () => {
    t = await testGateway({ env: { RATE_LIMIT_WRITE: '2' } });
    const { orderNumber, payToken } = await create();
    expect((await pay(orderNumber, { t: 'wrong-1', method: 'vendor_card' })).status).toBe(404);
    expect((await pay(orderNumber, { method: 'vendor_card' })).status).toBe(400); // no token: bad input counts too
    const limited = await pay(orderNumber, { t: 'wrong-3', method: 'vendor_card' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // docs/edge.md#wrong-tokens: the owner's pays count per order and token (RATE_LIMIT_SUBJECT_WRITE), not here.
    for (let i = 0; i < 3; i++) expect((await pay(orderNumber, { t: payToken, method: 'vendor_card' })).status).toBe(200);
  });
});
