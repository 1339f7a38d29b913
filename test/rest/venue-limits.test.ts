/**
 * Rate limits at a venue (docs/edge.md#rate-limits-at-a-venue, issue 15): attendees behind one address (the venue's
 * NAT) all get through with the default limits, while one client hammering one email or one order is limited
 * within seconds. Every request here comes from the same client address.
 */
import { describe, expect, it } from 'vitest';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

const NAT = () => '203.0.113.7';

async function attendee(t: TestGateway, i: number): Promise<number[]> {
  const statuses: number[] = [];
  const options = await t.rest('GET', '/api/sleeve-options');
  statuses.push(options.status);
  const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: `attendee${i}@example.com` });
  statuses.push(created.status);
  if (created.status !== 201) return statuses;
  const { orderNumber, payToken } = created.body;
  statuses.push((await t.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).status);
  statuses.push((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status);
  return statuses;
}

describe('a venue behind one address, default limits', () => {
  it('lets 100 attendees behind one NAT each read the options, create, look up and pay: no 429', async () => {
    const t = await testGateway({ clientAddress: NAT });
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) => attendee(t, i)));
    const limited = all.flat().filter((status) => status === 429).length;
    expect(limited, 'requests answered 429').toBe(0);
    expect(all.filter((s) => s.join() === '200,201,200,200')).toHaveLength(100);
  });

  it('limits one client hammering one email within seconds (429 rate_limited, Retry-After), and not the venue', async () => {
    const t = await testGateway({ clientAddress: NAT });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<TestGateway['rest']>> | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: i % 2 ? 'ADA@example.com ' : 'ada@example.com' });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(statuses.length).toBeLessThanOrEqual(25);
    expect(limited!.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(limited!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/u);
    // Everyone else behind the same address still creates.
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'grace@example.com' })).status).toBe(201);
  });

  it('limits one client hammering one order (lookups, then pays) within seconds', async () => {
    const t = await testGateway({ clientAddress: NAT });
    const { orderNumber, payToken } = await t.createOrder();
    const lookups: number[] = [];
    for (let i = 0; i < 200 && !lookups.includes(429); i++) lookups.push((await t.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).status);
    expect(lookups).toContain(429);
    expect(lookups.length).toBeLessThanOrEqual(125);
    const pays: number[] = [];
    for (let i = 0; i < 40 && !pays.includes(429); i++) pays.push((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status);
    expect(pays).toContain(429);
    expect(pays.length).toBeLessThanOrEqual(25);
    // Another order of the same venue is unaffected.
    const other = await t.createOrder({ email: 'grace@example.com' });
    expect((await t.rest('GET', `/api/orders/${other.orderNumber}?t=${other.payToken}`)).status).toBe(200);
  });

  it("a stranger's wrong payTokens spend none of the owner's count: the owner still looks up and pays, on both doors", async () => {
    let address = '198.51.100.7';
    const t = await testGateway({ clientAddress: () => address, env: { RATE_LIMIT_SUBJECT_READ: '5', RATE_LIMIT_SUBJECT_WRITE: '3' } });
    const { orderNumber, payToken } = await t.createOrder();
    address = '203.0.113.66';
    const strangerLookups: number[] = [];
    const strangerPays: number[] = [];
    for (let i = 0; i < 8; i++) {
      strangerLookups.push((await t.rest('GET', `/api/orders/${orderNumber}?t=guess`)).status);
      strangerPays.push((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: 'guess', method: 'vendor_card' })).status);
    }
    // The stranger repeating one guess is limited like anyone repeating one request.
    expect(strangerLookups).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    expect(strangerPays).toEqual([404, 404, 404, 429, 429, 429, 429, 429]);
    const graphqlGuess = await t.gql('query ($n: ID!) { order(orderNumber: $n, payToken: "another guess") { status } }', { n: orderNumber });
    expect(graphqlGuess.data.order).toBeNull();

    address = '198.51.100.7';
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).status).toBe(200);
    const owner = await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', { n: orderNumber, t: payToken });
    expect(owner.data.order).toEqual({ status: 'AWAITING_PAYMENT' });
    expect((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
  });

  it('slides: a burst at the end of one window and the start of the next is still held to the limit', async () => {
    const t = await testGateway({ clientAddress: NAT, env: { RATE_LIMIT_WRITE: '10' } });
    const create = (i: number) => t.rest('POST', '/api/orders', { ...VALID_ORDER, email: `burst${i}@example.com` });
    await t.clock.advance(59_000); // one second before the window's edge
    const before = [];
    for (let i = 0; i < 10; i++) before.push((await create(i)).status);
    await t.clock.advance(1_000); // the next fixed window: a fixed-window counter would allow 10 more now
    const after = (await create(10)).status;
    expect(before.every((s) => s === 201)).toBe(true);
    expect(after).toBe(429);
    await t.clock.advance(60_000); // a whole window after the burst
    expect((await create(11)).status).toBe(201);
  });
});
