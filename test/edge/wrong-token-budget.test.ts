/**
 * A script trying payTokens from the venue's one address spends only the budget of requests whose token opens
 * nothing (docs/edge.md#wrong-tokens): owners behind the same address still look up and pay with their own token.
 * Before, every lookup and pay counted against the address up front, so the script (a new token each time, so a new
 * subject each time, never held by the per-subject limit) spent the address's whole budget, and the owners met 429
 * on every door (a venue review: 68% of honest pays refused). The script itself is still held to that budget: once
 * over it, a wrong token is answered 429 instead of 404, on every door alike.
 */
import { describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { mcpClient } from '../agents/mcp-support.ts';

const NAT = () => '203.0.113.7';
/** The address's budget per window for each group (the read and the write limit alike). */
const BUDGET = 4;
const ENV = { RATE_LIMIT_READ: String(BUDGET), RATE_LIMIT_WRITE: String(BUDGET) };
const guess = (i: number) => `guess-${i}-${'x'.repeat(40)}`;

async function twoOwners(t: Pick<TestGateway, 'createOrder'>) {
  return [await t.createOrder({ email: 'ada@example.com' }), await t.createOrder({ email: 'grace@example.com' })] as const;
}

describe('wrong payTokens from the venue address', () => {
  it('REST: count against the address (404, then 429); owners behind it still look up, pay and use the pay page', async () => {
    const t = await testGateway({ clientAddress: NAT, env: ENV });
    const [ada, grace] = await twoOwners(t);
    const pays: number[] = [];
    const lookups: number[] = [];
    const pageSteps: number[] = [];
    for (let i = 0; i < BUDGET + 2; i++) {
      pays.push((await t.rest('POST', `/api/orders/${ada.orderNumber}/pay`, { t: guess(i), method: 'vendor_card' })).status);
      lookups.push((await t.rest('GET', `/api/orders/${grace.orderNumber}?t=${guess(i)}`)).status);
    }
    const budget = [...Array<number>(BUDGET).fill(404), 429, 429];
    expect(pays).toEqual(budget);
    expect(lookups).toEqual(budget);
    // The pay page's steps are pays: that budget is spent already.
    pageSteps.push((await t.rest('POST', `/api/orders/${ada.orderNumber}/wallet-token`, { t: guess(99) })).status);
    expect(pageSteps).toEqual([429]);
    const limited = await t.rest('POST', `/api/orders/${ada.orderNumber}/pay`, { t: guess(100), method: 'vendor_card' });
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/u);

    expect((await t.rest('GET', `/api/orders/${grace.orderNumber}?t=${grace.payToken}`)).status).toBe(200);
    expect((await t.rest('POST', `/api/orders/${grace.orderNumber}/wallet-token`, { t: grace.payToken })).status).toBe(200);
    const paid = await t.rest('POST', `/api/orders/${ada.orderNumber}/pay`, { t: ada.payToken, method: 'vendor_card' });
    expect([paid.status, paid.body.status]).toEqual([200, 'received']);
  });

  it('GraphQL: payOrder answers NOT_FOUND then RATE_LIMITED, order null then RATE_LIMITED; the owners go on', async () => {
    const t = await testGateway({ clientAddress: NAT, env: ENV });
    const [ada, grace] = await twoOwners(t);
    const PAY = 'mutation ($n: ID!, $t: String!) { payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { ... on ApiError { code } ... on PayResult { status } } }';
    const ORDER = 'query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }';
    const pays: string[] = [];
    const lookups: string[] = [];
    for (let i = 0; i < BUDGET + 1; i++) {
      pays.push((await t.gql(PAY, { n: ada.orderNumber, t: guess(i) })).data.payOrder.code);
      const lookup = await t.gql(ORDER, { n: grace.orderNumber, t: guess(i) });
      lookups.push(lookup.errors?.[0]?.extensions?.code as string ?? String(lookup.data.order));
    }
    expect(pays).toEqual([...Array<string>(BUDGET).fill('NOT_FOUND'), 'RATE_LIMITED']);
    expect(lookups).toEqual([...Array<string>(BUDGET).fill('null'), 'RATE_LIMITED']);
    const limited = await t.gql(ORDER, { n: grace.orderNumber, t: guess(99) });
    expect([limited.status, limited.data.order]).toEqual([429, null]); // with Retry-After, as any RATE_LIMITED error
    expect(limited.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfter: expect.any(Number) });

    expect((await t.gql(ORDER, { n: grace.orderNumber, t: grace.payToken })).data.order).toEqual({ status: 'AWAITING_PAYMENT' });
    expect((await t.gql(PAY, { n: ada.orderNumber, t: ada.payToken })).data.payOrder).toEqual({ status: 'RECEIVED' });
  });

  it('MCP: get_order and pay_order over a real socket, the same budget; the owner pays', async () => {
    const live = await liveServer({ env: ENV });
    const [ada, grace] = await twoOwners(live);
    const agent = await mcpClient(live.server.url);
    const lookups: string[] = [];
    const pays: string[] = [];
    for (let i = 0; i < BUDGET + 1; i++) {
      lookups.push((await agent.call('get_order', { orderNumber: grace.orderNumber, payToken: guess(i) })).structuredContent.code);
      pays.push((await agent.call('pay_order', { orderNumber: ada.orderNumber, payToken: guess(i), method: 'vendor_card' })).structuredContent.code);
    }
    const budget = [...Array<string>(BUDGET).fill('not_found'), 'rate_limited'];
    expect([lookups, pays]).toEqual([budget, budget]);

    expect((await agent.call('get_order', { orderNumber: grace.orderNumber, payToken: grace.payToken })).structuredContent.status).toBe('awaiting payment');
    const asked = await agent.call('pay_order', { orderNumber: ada.orderNumber, payToken: ada.payToken, method: 'vendor_card' });
    const confirmation = /confirmation "([0-9a-f]+)"/u.exec(asked.structuredContent.nextAction)?.[1];
    const paid = await agent.call('pay_order', { orderNumber: ada.orderNumber, payToken: ada.payToken, method: 'vendor_card', confirmation });
    expect(paid.structuredContent).toMatchObject({ ok: true, status: 'received' });
  });

  it('GraphQL subscriptions: orderUpdates and holdCountdown with wrong tokens spend the lookup budget; the owner follows', async () => {
    const live = await liveServer({ env: ENV });
    const [ada] = await twoOwners(live);
    const client = live.client();
    const codeOf = async (field: string, token: string) => {
      const errors = (await subscribe(client, `subscription ($n: ID!, $t: String!) { ${field}(orderNumber: $n, payToken: $t) { orderNumber } }`, { n: ada.orderNumber, t: token }).failed) as Array<{ extensions?: { code?: string } }>;
      return errors[0]?.extensions?.code;
    };
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < BUDGET + 1; i++) codes.push(await codeOf(i % 2 ? 'holdCountdown' : 'orderUpdates', guess(i)));
    expect(codes).toEqual([...Array<string>(BUDGET).fill('NOT_FOUND'), 'RATE_LIMITED']);
    const owner = subscribe(client, 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { orderNumber status } }', { n: ada.orderNumber, t: ada.payToken });
    expect(await owner.next()).toEqual({ orderUpdates: { orderNumber: ada.orderNumber, status: 'AWAITING_PAYMENT' } });
    owner.dispose();
  });
});
