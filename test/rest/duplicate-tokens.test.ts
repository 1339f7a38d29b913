/**
 * Issue 14, defect 10: every duplicate create while the order is held answers a fresh payToken (document 1 §2
 * Error.duplicate), and each used to add a row to `order_pay_tokens` for good (1 → 217 in a fuzz run). The tokens an
 * order keeps are bounded (docs/ordering.md#pay-tokens-on-a-duplicate): the one from the create, and the latest
 * ones answered with duplicates; older duplicate tokens stop working.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { payTokenHashes } from '../../src/orders/order-repository.ts';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

/** The create's token plus the four latest duplicate ones (docs/ordering.md#pay-tokens-on-a-duplicate). */
const KEPT_DUPLICATE_TOKENS = 4;

let t: TestGateway;

beforeEach(async () => {
  // These tests answer one email many duplicates on purpose: lift its per-email limit (docs/edge.md#rate-limits-at-a-venue).
  t = await testGateway({ env: { RATE_LIMIT_SUBJECT_WRITE: '1000' } });
});

const storedTokens = async () => (await payTokenHashes(t.gateway.database.db, 1001)).length;

async function duplicateToken(): Promise<string> {
  const res = await t.rest('POST', '/api/orders', VALID_ORDER);
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.code).toBe('duplicate');
  expect(typeof res.body.payToken).toBe('string');
  return res.body.payToken as string;
}

async function lookupStatus(token: string): Promise<number> {
  return (await t.rest('GET', `/api/orders/1001?t=${encodeURIComponent(token)}`)).status;
}

describe('pay tokens answered with duplicates', () => {
  it('keeps at most five tokens per order however many duplicates are answered', async () => {
    await t.createOrder();
    for (let i = 0; i < 30; i++) {
      await duplicateToken();
      await t.clock.advance(1);
    }
    expect(await storedTokens()).toBe(1 + KEPT_DUPLICATE_TOKENS);
  });

  it('keeps the create’s token and the latest duplicate tokens working; older duplicate tokens answer 404', async () => {
    const created = await t.createOrder();
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      tokens.push(await duplicateToken());
      // Each answer, as it is given, carries a token that works (document 1 §2: "a payToken that works").
      expect(await lookupStatus(tokens.at(-1)!)).toBe(200);
      await t.clock.advance(1);
    }
    expect(await lookupStatus(created.payToken)).toBe(200);
    const kept = tokens.slice(-KEPT_DUPLICATE_TOKENS);
    const rotated = tokens.slice(0, -KEPT_DUPLICATE_TOKENS);
    for (const token of kept) expect(await lookupStatus(token)).toBe(200);
    for (const token of rotated) expect(await lookupStatus(token)).toBe(404);
    // A kept token pays; the order then answers duplicates without a token, and issues no more.
    const paid = await t.rest('POST', '/api/orders/1001/pay', { t: kept[0], method: 'vendor_card' });
    expect(paid.status).toBe(200);
    const after = await t.rest('POST', '/api/orders', VALID_ORDER);
    expect(after.status).toBe(409);
    expect(after.body.payToken).toBeUndefined();
    expect(await storedTokens()).toBe(1 + KEPT_DUPLICATE_TOKENS);
  });

  it('keeps the same bound when duplicates arrive at once, and the create’s token still works', async () => {
    const created = await t.createOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.rest('POST', '/api/orders', VALID_ORDER)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(409));
    expect(await storedTokens()).toBe(1 + KEPT_DUPLICATE_TOKENS);
    expect(await lookupStatus(created.payToken)).toBe(200);
    // Issues of one order take turns, so exactly the latest four answered tokens are the kept ones.
    const working = (await Promise.all(answers.map((a) => lookupStatus(a.body.payToken as string)))).filter((s) => s === 200);
    expect(working).toHaveLength(KEPT_DUPLICATE_TOKENS);
  });
});
