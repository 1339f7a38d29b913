/**
 * One order per email on POST /api/orders (document 1 §3, docs/ordering.md#one-order-per-email): the 409 answer, its working
 * payToken, the hold's end, concurrent creates; and the write rate limit of creation.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../support/databases.ts';
import { type TestGateway, testGateway } from '../support/gateway.ts';
import { HOLD_FIELDS, orderRequests, PAY_LABEL } from './order-requests.ts';

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

const { orderInput, create, expect201 } = orderRequests(() => t);

describe('one order per email (duplicate)', () => {
  it('answers 409 duplicate with the held order’s hold fields, number, status and texts', async () => {
    const first = await create();
    await t.clock.advance(10_000);
    const res = await create({ name: 'Someone Else', stitchText: 'OTHER' });
    expect(res.status).toBe(409);
    const body = res.body;
    expect(body).toMatchObject({ ok: false, code: 'duplicate', duplicate: true, retryable: false });
    expect(body.error.length).toBeGreaterThan(0);
    expect(body.orderNumber).toBe('1001');
    expect(body.status).toBe('awaiting payment');
    expect(body.holdUntil).toBe(first.body.holdUntil);
    expect(body.holdUntilText).toBe('10:05 AM ET');
    expect(body.secondsLeft).toBe(290);
    expect(body.payUrl).toContain('/pay/1001');
    expect(typeof body.payToken).toBe('string');
    expect(body.payLabel).toBe(PAY_LABEL);
    expect(body.payButtonLabel).toBe(first.body.payButtonLabel);
    expect(body.message.trim().length).toBeGreaterThan(0);
    expect(body.nextAction.trim().length).toBeGreaterThan(0);
  });

  it('returns a payToken with the duplicate that works for lookup, as does the first one', async () => {
    const first = await create();
    const dup = await create();
    expect(dup.status).toBe(409);
    const viaDup = await t.rest('GET', `/api/orders/1001?t=${encodeURIComponent(dup.body.payToken)}`);
    expect(viaDup.status).toBe(200);
    expect(viaDup.body.orderNumber).toBe('1001');
    const viaFirst = await t.rest('GET', `/api/orders/1001?t=${encodeURIComponent(first.body.payToken)}`);
    expect(viaFirst.status).toBe(200);
  });

  it('compares emails case-insensitively after trimming', async () => {
    await create({ email: 'ada@example.com' });
    const res = await create({ email: ' ADA@Example.com ' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('duplicate');
    expect(res.body.orderNumber).toBe('1001');
  });

  it('does not use up an order number on a duplicate', async () => {
    await create();
    await create();
    expect((await create({ email: 'bob@example.com' })).body.orderNumber).toBe('1002');
  });

  it('lets the same email order again once the hold has ended, with a new order number', async () => {
    await create();
    await t.clock.advance(300_000);
    const again = await expect201({});
    expect(again.body.orderNumber).toBe('1002');
    expect(again.body.holdUntil).toBe(new Date(t.clock.now() + 300_000).toISOString());
  });

  it('still refuses the same email one second before the hold ends', async () => {
    await create();
    await t.clock.advance(299_000);
    const res = await create();
    expect(res.status).toBe(409);
    expect(res.body.secondsLeft).toBe(1);
  });

  it('answers a duplicate of a paid order without any hold fields', async () => {
    const first = await create();
    const paid = await t.rest('POST', '/api/orders/1001/pay', { t: first.body.payToken, method: 'vendor_card' });
    expect(paid.status).toBe(200);
    const res = await create();
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ ok: false, code: 'duplicate', duplicate: true, retryable: false });
    for (const field of HOLD_FIELDS) expect(res.body, field).not.toHaveProperty(field);
  });

  it('lets exactly one of 20 concurrent creates with one email win; the rest are duplicates', async () => {
    const input = await orderInput();
    const results = await Promise.all(Array.from({ length: 20 }, () => t.rest('POST', '/api/orders', input)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = Number(results.find((x) => x.status === 201)!.body.orderNumber);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('duplicate');
      expect(r.body.duplicate).toBe(true);
      expect(r.body.orderNumber).toBe(String(winner));
    }
    const next = Number((await create({ email: 'bob@example.com' })).body.orderNumber);
    // SQLite takes the number inside the creating transaction: a refused create leaves no gap, so the winner is 1001
    // and the next 1002. PostgreSQL takes it in a statement of its own (src/orders/order-service.ts): losers of the
    // race may have taken numbers before the winner did, and none is used again.
    if (BACKEND === 'sqlite') {
      expect([winner, next]).toEqual([1001, 1002]);
    } else {
      expect(winner).toBeGreaterThanOrEqual(1001);
      expect(winner).toBeLessThanOrEqual(1020);
      expect(next).toBeGreaterThan(winner);
      expect(next).toBeLessThanOrEqual(1021);
    }
  });

  it('treats concurrent creates differing only in case and spaces as one email', async () => {
    const emails = ['ada@example.com', 'ADA@EXAMPLE.COM', ' Ada@Example.com', 'ada@example.com  ', 'aDa@exAmple.com'];
    const results = await Promise.all(emails.map(async (email) => t.rest('POST', '/api/orders', await orderInput({ email }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'duplicate')).toHaveLength(4);
  });
});

describe('rate limiting of creation', () => {
  it('answers 429 rate_limited with Retry-After past RATE_LIMIT_WRITE, and again allows after the window', async () => {
    t = await testGateway({ env: { RATE_LIMIT_READ: '100', RATE_LIMIT_WRITE: '2' } });
    expect((await create({ email: 'a@example.com' })).status).toBe(201);
    expect((await create({ email: 'b@example.com' })).status).toBe(201);
    const limited = await create({ email: 'c@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/u);
    // The window slides (docs/edge.md#rate-limits-at-a-venue): allowed again once Retry-After has passed.
    await t.clock.advance(Number(limited.headers.get('retry-after')) * 1000);
    const res = await create({ email: 'c@example.com' });
    expect(res.status).toBe(201);
    // The limited attempt stored nothing: numbers continue without a gap.
    expect(res.body.orderNumber).toBe('1003');
  });
});
