/**
 * What an outside agent developer found at /mcp (docs/agents.md), each through the SDK's own Client or raw HTTP on a
 * real port: a tool's text carries every value it tells the agent to use; a duplicate is answered before the user
 * is asked to confirm; a rate-limited call says when to try again; browser origins other than the gateway's own, this
 * machine's and the listed ones are refused even with CORS_ORIGINS unset (DNS rebinding); and an initialize the
 * protocol refuses (in a batch, not JSON-RPC 2.0) makes no session; tools have titles and honest hints; a malformed
 * tools/call gets invalid params in plain words; a resource error's message is not prefixed twice.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { acceptAll, mcpClient, textOf } from './mcp-support.ts';

const ADMIN = 'mcp-admin-token-5d41402abc4b2a76';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

const server = (env: Record<string, string> = {}) => liveServer({ env: { ADMIN_TOKEN: ADMIN, ...env } });

/** The JSON after the relayed lines of a tool's text. */
const jsonIn = (text: string) => JSON.parse(/^JSON: (.*)$/mu.exec(text)![1]!);

describe('the MCP door, as an outside agent developer found it', () => {
  it("puts the whole answer in the text: the payToken and payUrl it says to use, a staff list's orders, a duplicate's next step", async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url, { elicit: acceptAll });
    const created = await agent.call('create_order', { ...VALID_ORDER });
    const order = created.structuredContent;
    expect(textOf(created)).toContain(`nextAction: ${order.nextAction}`);
    expect(jsonIn(textOf(created))).toEqual(order);
    expect(textOf(created)).toContain(order.payToken);
    expect(textOf(created)).toContain(order.payUrl);

    const staff = await mcpClient(live.server.url, { headers: { authorization: `Bearer ${ADMIN}` } });
    const listed = await staff.call('list_orders', {});
    expect(jsonIn(textOf(listed)).orders).toEqual([expect.objectContaining({ orderNumber: order.orderNumber })]);

    // The same email again: refused before the user is asked, with the held order's next step in the text.
    const again = await mcpClient(live.server.url, { elicit: acceptAll });
    const duplicate = await again.call('create_order', { ...VALID_ORDER, stitchText: 'OTHER' });
    expect(again.asked).toHaveLength(0);
    expect(duplicate.structuredContent).toMatchObject({ ok: false, code: 'duplicate', orderNumber: order.orderNumber });
    expect(textOf(duplicate)).toContain('code: duplicate');
    expect(textOf(duplicate)).toContain(`nextAction: ${duplicate.structuredContent.nextAction}`);
    expect(textOf(duplicate)).toContain(duplicate.structuredContent.payToken);
    // Without elicitation the first call answers the duplicate too, not a confirmation to ask for.
    const coded = await mcpClient(live.server.url);
    expect((await coded.call('create_order', { ...VALID_ORDER })).structuredContent).toMatchObject({ ok: false, code: 'duplicate' });
  });

  it('says when to try again when rate limited, as REST says in Retry-After', async () => {
    const live = await server({ RATE_LIMIT_SUBJECT_READ: '1' });
    const agent = await mcpClient(live.server.url);
    const { orderNumber, payToken } = await live.createOrder();
    expect((await agent.call('get_order', { orderNumber, payToken })).isError).toBeUndefined();
    const refused = await agent.call('get_order', { orderNumber, payToken });
    expect(refused.structuredContent).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    const seconds = refused.structuredContent.retryAfter as number;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(textOf(refused)).toContain(`retryAfter: ${seconds} seconds`);
    const rest = await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`);
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The order as a resource, read or followed: a server error with retryAfter, not -32600 "Invalid Request",
    // which tells a client to stop, with no word of when to try again.
    const uri = `sleeve://orders/${orderNumber}?t=${payToken}`;
    for (const attempt of [() => agent.client.readResource({ uri }), () => agent.client.subscribeResource({ uri })]) {
      const error = await attempt().then(() => null, (thrown: { code: number; data: Record<string, unknown> }) => thrown);
      expect(error).toMatchObject({ code: -32000, data: { code: 'rate_limited', retryable: true, retryAfter: expect.any(Number) } });
    }
  });

  it.each([[{}], [{ CORS_ORIGINS: 'https://agents.example' }]])('refuses a foreign page, lets its own, a local and a listed one in (%o)', async (env) => {
    const live = await server({ PUBLIC_URL: 'https://sleeve.example', ...env });
    const url = `${live.server.url}/mcp`;
    const open = (origin: string) => fetch(url, { method: 'POST', headers: { ...HEADERS, origin }, body: JSON.stringify(INITIALIZE) });
    // A page on a name pointed at this machine (DNS rebinding) gets nothing, and no session.
    const rebound = await open('http://evil.example:4000');
    expect([rebound.status, rebound.headers.get('mcp-session-id')]).toEqual([403, null]);
    for (const origin of ['https://sleeve.example', 'http://localhost:6274', 'http://127.0.0.1:5173']) {
      const opened = await open(origin);
      expect([origin, opened.status]).toEqual([origin, 200]);
      expect(opened.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{43}$/u);
      // A page the guard lets in can read the answer: a local page (the MCP Inspector's direct mode) got no
      // allow-origin header once CORS_ORIGINS was set, so its browser refused every answer (an agent review).
      expect([origin, opened.headers.get('access-control-allow-origin')]).toEqual([origin, 'CORS_ORIGINS' in env ? origin : '*']);
      const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' } });
      expect([origin, preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([origin, 204, 'CORS_ORIGINS' in env ? origin : '*']);
    }
    expect((await open('https://agents.example')).status).toBe('CORS_ORIGINS' in env ? 200 : 403);
    const own = await open('https://sleeve.example');
    expect(own.headers.get('access-control-allow-origin')).toBe('CORS_ORIGINS' in env ? 'https://sleeve.example' : '*');
  });

  it('makes no session for an initialize in a batch or not in JSON-RPC 2.0', async () => {
    const live = await server();
    const url = `${live.server.url}/mcp`;
    const post = (body: unknown) => fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    const batch = await post([INITIALIZE, { jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    expect([batch.status, batch.headers.get('mcp-session-id')]).toEqual([400, null]);
    expect((await batch.json()).error.code).toBe(-32600);
    const old = await post({ ...INITIALIZE, jsonrpc: '1.0' });
    expect([old.status, old.headers.get('mcp-session-id')]).toEqual([400, null]);
    expect(await old.json()).toMatchObject({ id: 0, error: { code: -32600 } });
    const fine = await post(INITIALIZE);
    expect(fine.status).toBe(200);
  });

  it('titles every tool, and marks only cancel_order destructive among the staff tools', async () => {
    const live = await server();
    const staff = await mcpClient(live.server.url, { headers: { authorization: `Bearer ${ADMIN}` } });
    const { tools } = await staff.client.listTools();
    expect(tools.filter((tool) => !tool.title)).toEqual([]);
    // No list ever changes within a session, so no list_changed is promised.
    expect(staff.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false, subscribe: true } });
    const destructive = tools.filter((tool) => !tool.annotations?.readOnlyHint && tool.annotations?.destructiveHint !== false).map((tool) => tool.name);
    expect(destructive).toEqual(['cancel_order']);
    // Moving an order to collected by advance_order names the tool that does it.
    const { orderNumber, payToken } = await live.createOrder();
    await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    expect((await staff.call('advance_order', { orderNumber, status: 'collected' })).structuredContent.error).toContain('collect_order');
  });

  it('answers a malformed tools/call with invalid params in plain words, and takes arguments: null as none', async () => {
    const live = await server();
    const url = `${live.server.url}/mcp`;
    const opened = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
    await opened.text();
    const inSession = { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    const call = async (params: unknown) => {
      const response = await fetch(url, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }) });
      const text = await response.text();
      return JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/mu.exec(text)![1]!);
    };
    for (const params of [{ name: 'get_order', arguments: ['1001', 'x'] }, { arguments: {} }, 'get_order']) {
      const answer = await call(params);
      expect(answer).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringMatching(/^Invalid params: params/u) } });
      expect(answer.error.message).not.toContain('invalid_type');
    }
    const none = await call({ name: 'get_event_info', arguments: null });
    expect(none.result.isError).toBeUndefined();
  });

  it("sends a resource error's message once, not prefixed by the SDK twice", async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url);
    const { orderNumber } = await live.createOrder();
    const refused = await agent.client.readResource({ uri: `sleeve://orders/${orderNumber}?t=wrong` }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).toBe('MCP error -32002: No order was found with that order number and payToken.');
  });

  it('says what an order resource read or subscribed without its payToken lacks, once prefixed', async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url);
    const { orderNumber } = await live.createOrder();
    const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);
    // The SDK said "Resource sleeve://orders/1001 not found": of an order that exists, with nothing of the token.
    const lacking = `MCP error -32602: Invalid params: sleeve://orders/${orderNumber} has no payToken; an order resource looks like sleeve://orders/{orderNumber}?t={payToken}, with the payToken create_order answered.`;
    expect((await failure(agent.client.readResource({ uri: `sleeve://orders/${orderNumber}` })))?.message).toBe(lacking);
    expect((await failure(agent.client.subscribeResource({ uri: `sleeve://orders/${orderNumber}` })))?.message).toBe(lacking);
    const empty = (await failure(agent.client.readResource({ uri: `sleeve://orders/${orderNumber}?t=` }))) as Error;
    expect(empty.message).toBe(lacking.replace(`/${orderNumber} has`, `/${orderNumber}?t= has`));
    // Another scheme or path is still not a resource here, as the SDK says.
    expect((await failure(agent.client.readResource({ uri: 'sleeve://menus/1' })))?.message).toBe('MCP error -32602: Resource sleeve://menus/1 not found');
  });

  it('says when a confirmation is not the code of the details sent, instead of asking as if it were the first call', async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url);
    const first = await agent.call('create_order', { ...VALID_ORDER });
    expect(first.structuredContent.nextAction).toMatch(/^Nothing is ordered yet/u);
    const code = first.structuredContent.confirmation as string;
    const changed = await agent.call('create_order', { ...VALID_ORDER, stitchText: 'ADA 1816', confirmation: code });
    expect(changed.structuredContent).toMatchObject({ confirmationRequired: true });
    expect(changed.structuredContent.nextAction).toMatch(/^The confirmation sent is not the code of these details/u);
    const created = (await agent.call('create_order', { ...VALID_ORDER, confirmation: code })).structuredContent;
    const wrongPay = await agent.call('pay_order', { orderNumber: created.orderNumber, payToken: created.payToken, method: 'vendor_card', confirmation: code });
    expect(wrongPay.structuredContent).toMatchObject({ confirmationRequired: true });
    expect(wrongPay.structuredContent.nextAction).toMatch(/^The confirmation sent is not the code/u);
  });

  it("says in a staff move's message what happened: the new status, who collected, whether a cancel refunds", async () => {
    const live = await server();
    const staff = await mcpClient(live.server.url, { headers: { authorization: `Bearer ${ADMIN}` } });
    const paidOrder = async (email: string) => {
      const { orderNumber, payToken } = await live.createOrder({ email });
      await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
      return orderNumber;
    };
    const first = await paidOrder('first@example.com');
    expect((await staff.call('advance_order', { orderNumber: first, status: 'ready' })).structuredContent.message).toBe(`Order ${first} is now ready.`);
    const collected = await staff.call('collect_order', { orderNumber: first, collectorName: VALID_ORDER.name });
    expect(collected.structuredContent.message).toBe(`Order ${first} was handed over to ${VALID_ORDER.name}.`);
    const second = await paidOrder('second@example.com');
    const cancelled = await staff.call('cancel_order', { orderNumber: second, reason: 'Machine broke' });
    expect(cancelled.structuredContent.message).toBe(`Order ${second} is cancelled; it was paid with the demo card, so nothing was charged.`);
    const { orderNumber: unpaid } = await live.createOrder({ email: 'third@example.com' });
    expect((await staff.call('cancel_order', { orderNumber: unpaid, reason: 'Asked to' })).structuredContent.message).toBe(`Order ${unpaid} is cancelled; it was never paid.`);
  });

  it('says the configured hold (HOLD_SECONDS) in its instructions, descriptions and questions, not always 5 minutes', async () => {
    const live = await server({ HOLD_SECONDS: '600' });
    const agent = await mcpClient(live.server.url);
    expect(agent.client.getInstructions()).toContain('an unpaid order is cancelled after 10 minutes');
    const { tools } = await agent.client.listTools();
    expect(tools.find((tool) => tool.name === 'create_order')!.description).toMatch(/^Create the order \(held unpaid for 10 minutes\)\./u);
    const asked = await agent.call('create_order', { ...VALID_ORDER });
    expect(asked.structuredContent.message).toContain('The order is then held unpaid for 10 minutes.');
    expect(JSON.stringify(asked.structuredContent)).not.toContain('5 minutes');
  });
});
