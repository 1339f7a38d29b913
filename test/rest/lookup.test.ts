/**
 * GET /api/orders/{orderNumber}?t= on the REST door (document 1 §2-§5, docs/ordering.md): the Order while held,
 * after payment and after the hold ended by a moved clock; wrong tokens answer exactly like unknown orders.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { findOrder } from '../../src/orders/order-repository.ts';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

const HOLD_FIELDS = ['holdUntil', 'holdUntilText', 'secondsLeft', 'payUrl', 'payToken', 'payLabel', 'payButtonLabel'] as const;

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

const create = (change?: Record<string, unknown>) => t.createOrder(change);

function lookup(orderNumber: string, token?: string) {
  return t.rest('GET', token === undefined ? `/api/orders/${orderNumber}` : `/api/orders/${orderNumber}?t=${encodeURIComponent(token)}`);
}

describe('looking up a held order', () => {
  it('answers 200 with the Order and its hold fields, but no payToken field', async () => {
    const { orderNumber, payToken } = await create();
    const res = await lookup(orderNumber, payToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(res.body).toMatchObject({
      ok: true,
      orderNumber: '1001',
      status: 'awaiting payment',
      holdUntil: '2026-11-22T15:05:00.000Z',
      holdUntilText: '10:05 AM ET',
      secondsLeft: 300,
      payLabel: 'Pay $1.00 - all payments will be refunded',
      order: {
        size: VALID_ORDER.size,
        font: VALID_ORDER.font,
        thread: VALID_ORDER.thread,
        stitchText: VALID_ORDER.stitchText,
        status: 'awaiting payment',
      },
    });
    expect(res.body.payUrl).toContain('/pay/1001');
    expect(res.body).not.toHaveProperty('payToken');
    expect(res.body).not.toHaveProperty('reason');
    expect(res.body.message.trim().length).toBeGreaterThan(0);
    expect(res.body.nextAction.trim().length).toBeGreaterThan(0);
  });

  it('counts secondsLeft down with the clock, in whole seconds rounded down', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(10_500);
    expect((await lookup(orderNumber, payToken)).body.secondsLeft).toBe(289);
  });

  it('is still awaiting payment with secondsLeft 1 after 299 seconds', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(299_000);
    const res = await lookup(orderNumber, payToken);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('awaiting payment');
    expect(res.body.secondsLeft).toBe(1);
    expect(res.body.holdUntilText).toBe('10:05 AM ET');
  });
});

describe('the hold ending (document 1 §3)', () => {
  it('cancels the order at 300 seconds with reason "not paid within 5 minutes" and no hold fields', async () => {
    const { orderNumber, payToken } = await create();
    await t.clock.advance(299_000);
    await t.clock.advance(1_000);
    const res = await lookup(orderNumber, payToken);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.reason).toBe('not paid within 5 minutes');
    expect(res.body.order.status).toBe('cancelled');
    for (const field of HOLD_FIELDS) expect(res.body, field).not.toHaveProperty(field);
    expect(res.body.message).toContain('not paid within 5 minutes');
    expect(res.body.nextAction.trim().length).toBeGreaterThan(0);
  });

  it('cancels the order at holdUntil even when no request touches it', async () => {
    await create();
    await t.clock.advance(300_000);
    const row = await findOrder(t.gateway.database.db, 1001);
    expect(row?.status).toBe('cancelled');
    expect(row?.cancel_reason).toBe('not paid within 5 minutes');
  });

  it('cancels each of several orders at its own holdUntil', async () => {
    await create({ email: 'a@example.com' });
    await t.clock.advance(60_000);
    await create({ email: 'b@example.com' });
    await t.clock.advance(240_000);
    expect((await findOrder(t.gateway.database.db, 1001))?.status).toBe('cancelled');
    expect((await findOrder(t.gateway.database.db, 1002))?.status).toBe('awaiting payment');
    await t.clock.advance(60_000);
    expect((await findOrder(t.gateway.database.db, 1002))?.status).toBe('cancelled');
  });
});

describe('looking up a paid order', () => {
  it('keeps accepting the payToken after payment, without returning it or any hold field', async () => {
    const { orderNumber, payToken } = await create();
    const paid = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    expect(paid.status).toBe(200);
    const res = await lookup(orderNumber, payToken);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('received');
    expect(res.body.order.status).toBe('received');
    for (const field of HOLD_FIELDS) expect(res.body, field).not.toHaveProperty(field);
    expect(res.body).not.toHaveProperty('reason');
    expect(res.body.message.trim().length).toBeGreaterThan(0);
    expect(res.body.nextAction.trim().length).toBeGreaterThan(0);
  });

  it('still answers received long after the hold time has passed', async () => {
    const { orderNumber, payToken } = await create();
    await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    await t.clock.advance(3_600_000);
    expect((await lookup(orderNumber, payToken)).body.status).toBe('received');
  });
});

describe('wrong tokens answer exactly like unknown orders (docs/ordering.md#pay-tokens)', () => {
  it('answers a wrong t, a missing t, an empty t and another order’s token with the 404 body of an unknown order', async () => {
    const a = await create();
    const b = await create({ email: 'bob@example.com' });
    const unknown = await lookup('9999', a.payToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    expect(unknown.body.error.length).toBeGreaterThan(0);

    const cases = {
      wrong: await lookup(a.orderNumber, 'wrong-token'),
      missing: await lookup(a.orderNumber),
      empty: await lookup(a.orderNumber, ''),
      other: await lookup(a.orderNumber, b.payToken),
      almost: await lookup(a.orderNumber, a.payToken.slice(0, -1)),
      long: await lookup(a.orderNumber, 'x'.repeat(5000)),
    };
    for (const [name, res] of Object.entries(cases)) {
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual(unknown.body);
    }
  });

  it('answers 404 not_found to a non-digit order number', async () => {
    const { payToken } = await create();
    for (const path of ['abc', '1001a', '%201001', '10.01', '-1']) {
      const res = await lookup(path, payToken);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('not_found');
    }
  });
});

describe('rate limiting of lookup', () => {
  it('answers 429 rate_limited with Retry-After past RATE_LIMIT_READ wrong tokens; the right one is not in that count', async () => {
    t = await testGateway({ env: { RATE_LIMIT_READ: '2' } });
    const { orderNumber, payToken } = await create();
    expect((await lookup(orderNumber, 'wrong-1')).status).toBe(404);
    expect((await lookup(orderNumber, 'wrong-2')).status).toBe(404);
    const limited = await lookup(orderNumber, 'wrong-3');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // docs/edge.md#wrong-tokens: the address's budget is for tokens that open nothing; the owner's is per order.
    for (let i = 0; i < 3; i++) expect((await lookup(orderNumber, payToken)).status).toBe(200);
  });
});
