/**
 * Half of a surrogate pair on its own (`"\ud800"` in JSON) is no Unicode text (src/kernel/unicode-text.ts): every
 * door refuses it with 400 in its own shape and stores nothing. Before, two emails that differ only in such a half
 * were two emails to "one order per email" and the same once stored, and an orderId came back other than sent.
 */
import { describe, expect, it } from 'vitest';
import { paymentBody, CARDS } from '../payments/support.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

const LONE = 'sur\ud800@example.com';

describe.each(TRANSPORTS)('over %s', (transport) => {
  it('REST refuses a body holding a lone surrogate, 400 naming the field, and stores nothing', async () => {
    const t = await gatewayOver(transport);
    const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: LONE });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ ok: false, code: 'bad_request', field: 'email' });
    expect(await t.gateway.database.db.selectFrom('orders').select('order_number').execute()).toEqual([]);
    const paid = await t.rest('POST', '/api/payments', paymentBody(CARDS.ok, { orderId: 'order-\udfff' }), { authorization: t.siteAuthorization });
    expect(paid.status).toBe(400);
    expect(paid.body).toMatchObject({ status: 'error', errors: [{ field: 'orderId' }] });
    // A pair, escaped or not, is text like any other.
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, stitchText: 'AL' , email: 'pair\ud83d\ude00@example.com' })).status).not.toBe(400);
  });

  it('GraphQL refuses a variable holding one, on yoga\'s path and the fast path, and creates nothing', async () => {
    const t = await gatewayOver(transport);
    const query = 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }';
    for (let i = 0; i < 2; i++) {
      const res = await t.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { i: { ...VALID_ORDER, email: LONE } } }) });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: Array<{ message: string }> };
      expect(body.errors[0]!.message).toMatch(/^variables\.i\.email is not Unicode text/u);
    }
    const fine = await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', { n: '1001', t: '\ud83d\ude00' });
    expect(fine).toMatchObject({ status: 200, data: { order: null } });
    expect(fine.errors).toBeUndefined();
    expect(await t.gateway.database.db.selectFrom('orders').select('order_number').execute()).toEqual([]);
  });
});

describe('the MCP door', () => {
  it('answers a message holding one with a JSON-RPC invalid-params error, 400', async () => {
    const t = await gatewayOver('node');
    const res = await t.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent\ud800', version: '1' } } }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/params\.clientInfo\.name is not Unicode text/u) } });
  });
});
