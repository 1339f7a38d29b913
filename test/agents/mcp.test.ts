/**
 * The MCP door (CONTRACT §9, docs/agents.md) through the SDK's own Client over a real port: the tools and their
 * schemas, the whole flow with elicitation, a declined confirmation, document 1's errors, the confirmation codes of
 * clients without elicitation, the order resource and its updates, the shared rate limits, the staff tools, and
 * the request log.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { startServer } from '../../src/server.ts';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { acceptAll, mcpClient, textOf } from './mcp-support.ts';

const ADMIN = 'mcp-admin-token-5d41402abc4b2a76';
const PUBLIC_TOOLS = ['create_order', 'get_event_info', 'get_order', 'get_sleeve_options', 'pay_order'];
const STAFF_TOOLS = ['advance_order', 'cancel_order', 'collect_order', 'list_orders'];

async function server(env: Record<string, string> = {}, logger?: ReturnType<typeof createLogger>) {
  return liveServer({ env: { ADMIN_TOKEN: ADMIN, ...env }, ...(logger ? { logger } : {}) });
}

describe('the MCP door', () => {
  it('lists the five tools with input schemas from the order rules, and the order resource template', async () => {
    const live = await server();
    const { client } = await mcpClient(live.server.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(PUBLIC_TOOLS);
    const create = tools.find((t) => t.name === 'create_order')!;
    expect(create.inputSchema.required).toEqual(['email', 'name', 'size', 'font', 'thread', 'stitchText']);
    const props = create.inputSchema.properties as Record<string, any>;
    expect(props.email.maxLength).toBe(254);
    expect(props.name.maxLength).toBe(40);
    expect(props.stitchText.pattern).toBe('^[A-Za-z0-9][A-Za-z0-9 .\\-&]*$');
    expect(create.description).toMatch(/spell stitchText back/u);
    const pay = tools.find((t) => t.name === 'pay_order')!;
    expect((pay.inputSchema.properties as any).method.enum).toEqual(['card', 'vendor_card', 'wallet']);
    expect(pay.description).toMatch(/never choose for the user/iu);
    expect(client.getInstructions()).toMatch(/Retry only when `retryable` is true/u);
    expect(client.getInstructions()).toMatch(/Confirm the payment with the user unless the user's own settings allow paying without asking/u);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['sleeve://orders/{orderNumber}?t={payToken}']);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
  });

  it('runs the whole flow: options, create confirmed by the user, pay with the demo card the user chose, get the order', async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url, { elicit: acceptAll });
    const options = await agent.call('get_sleeve_options');
    expect(options.isError).toBeUndefined();
    expect(options.structuredContent.ok).toBe(true);
    expect(options.structuredContent.sizes).toContain(VALID_ORDER.size);
    // A host that hands the model only the text gives it everything the structured answer holds.
    expect(JSON.parse(/^JSON: (.*)$/mu.exec(textOf(options))![1]!)).toEqual(options.structuredContent);

    const created = await agent.call('create_order', { ...VALID_ORDER });
    expect(created.isError).toBeUndefined();
    const order = created.structuredContent;
    expect(order).toMatchObject({ ok: true, status: 'awaiting payment', order: { stitchText: 'ADA 1815' } });
    expect(order.payToken).toEqual(expect.any(String));
    expect(textOf(created)).toContain(`message: ${order.message}`);
    expect(textOf(created)).toContain(`nextAction: ${order.nextAction}`);
    expect(created.content.some((c) => c.type === 'resource_link' && c.uri === `sleeve://orders/${order.orderNumber}?t=${order.payToken}`)).toBe(true);
    // The user was asked first, every detail there, the stitch text letter by letter.
    expect(agent.asked).toHaveLength(1);
    expect(agent.asked[0]!.message).toContain('capital A, capital D, capital A, space, 1, 8, 1, 5');
    expect(agent.asked[0]!.message).toContain('Ada Lovelace');
    expect(agent.asked[0]!.message).toContain('ada@example.com');

    const paid = await agent.call('pay_order', { orderNumber: order.orderNumber, payToken: order.payToken, method: 'vendor_card' });
    expect(paid.isError).toBeUndefined();
    expect(paid.structuredContent).toMatchObject({ ok: true, orderNumber: order.orderNumber, status: 'received', alreadyPaid: false });
    expect(agent.asked).toHaveLength(2);
    expect(agent.asked[1]!.message).toMatch(/demo card.*\n.*pay page/su);

    const got = await agent.call('get_order', { orderNumber: order.orderNumber, payToken: order.payToken });
    expect(got.structuredContent).toMatchObject({ ok: true, status: 'received' });
    // The same body the REST lookup answers.
    const rest = await live.rest('GET', `/api/orders/${order.orderNumber}?t=${order.payToken}`);
    expect(got.structuredContent).toEqual(rest.body);
  });

  it('creates nothing and pays nothing when the user declines or cancels', async () => {
    const live = await server();
    const declining = await mcpClient(live.server.url, { elicit: () => ({ action: 'decline' }) });
    const declined = await declining.call('create_order', { ...VALID_ORDER });
    expect(declined.isError).toBeUndefined();
    expect(declined.structuredContent).toMatchObject({ confirmed: false });
    expect(await live.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(false);

    const { orderNumber, payToken } = await live.createOrder();
    const cancelling = await mcpClient(live.server.url, { elicit: () => ({ action: 'cancel' }) });
    const unpaid = await cancelling.call('pay_order', { orderNumber, payToken, method: 'vendor_card' });
    expect(unpaid.structuredContent).toMatchObject({ paid: false });
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('awaiting payment');
  });

  it("answers bad input with document 1's Error body, as REST does, and asks the user nothing", async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url, { elicit: acceptAll });
    const invalid = await agent.call('create_order', { ...VALID_ORDER, stitchText: '-no' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ ok: false, code: 'validation_failed', field: 'stitchText', retryable: false });
    expect(textOf(invalid)).toContain(`error: ${invalid.structuredContent.error}`);
    const rest = await live.rest('POST', '/api/orders', { ...VALID_ORDER, stitchText: '-no' });
    expect(invalid.structuredContent).toEqual(rest.body);
    const missing = await agent.call('create_order', { ...VALID_ORDER, email: undefined });
    expect(missing.structuredContent).toMatchObject({ ok: false, code: 'bad_request', field: 'email' });
    const typed = await agent.call('pay_order', { orderNumber: '1', payToken: 'x', method: 'cash' });
    expect(typed.structuredContent).toMatchObject({ ok: false, code: 'bad_request', field: 'method' });
    const unknown = await agent.call('get_order', { orderNumber: '999999', payToken: 'nope' });
    expect(unknown.structuredContent).toMatchObject({ ok: false, code: 'not_found' });
    expect(agent.asked).toHaveLength(0);
    expect(await live.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(false);
  });

  it('without elicitation, answers what the user must confirm and acts only on the code of exactly those details', async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url);
    const first = await agent.call('create_order', { ...VALID_ORDER });
    expect(first.structuredContent).toMatchObject({ confirmationRequired: true, stitchTextSpelled: 'capital A, capital D, capital A, space, 1, 8, 1, 5' });
    const code = first.structuredContent.confirmation as string;
    expect(textOf(first)).toContain(code);
    expect(await live.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(false);
    // A changed detail is not what the user confirmed.
    const changed = await agent.call('create_order', { ...VALID_ORDER, stitchText: 'ADA 1816', confirmation: code });
    expect(changed.structuredContent.confirmationRequired).toBe(true);
    const created = await agent.call('create_order', { ...VALID_ORDER, confirmation: code });
    expect(created.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
    const { orderNumber, payToken } = created.structuredContent;

    const choose = await agent.call('pay_order', { orderNumber, payToken, method: 'vendor_card' });
    expect(choose.structuredContent.confirmationRequired).toBe(true);
    expect(choose.structuredContent.payUrl).toContain(`/pay/${orderNumber}`);
    const vendor = choose.structuredContent.choices.find((c: any) => c.method === 'vendor_card');
    const paid = await agent.call('pay_order', { orderNumber, payToken, method: 'vendor_card', confirmation: vendor.confirmation });
    expect(paid.structuredContent).toMatchObject({ ok: true, status: 'received', alreadyPaid: false });
  });

  it('reads an order as a resource and sends an update to a subscriber when staff move it', async () => {
    const live = await server();
    const agent = await mcpClient(live.server.url);
    await agent.streamOpen;
    const { orderNumber, payToken } = await live.createOrder();
    const uri = `sleeve://orders/${orderNumber}?t=${payToken}`;
    const read = await agent.client.readResource({ uri });
    expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toMatchObject({ orderNumber, status: 'awaiting payment' });
    await expect(agent.client.readResource({ uri: `sleeve://orders/${orderNumber}?t=wrong` })).rejects.toThrow(/No order was found/u);
    await expect(agent.client.subscribeResource({ uri: `sleeve://orders/${orderNumber}?t=wrong` })).rejects.toThrow(/No order was found/u);

    await agent.client.subscribeResource({ uri });
    expect((await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
    expect(await agent.updates(1)).toEqual([uri]);
    const advanced = await live.gql('mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { status } }', { n: orderNumber }, { token: ADMIN });
    expect(advanced.errors).toBeUndefined();
    expect(await agent.updates(2)).toEqual([uri, uri]);
    const now = await agent.client.readResource({ uri });
    expect(JSON.parse(String((now.contents[0] as { text: string }).text)).status).toBe('ready');

    await agent.client.unsubscribeResource({ uri });
    await live.gql('mutation ($n: ID!) { collectOrder(orderNumber: $n, collectorName: "Ada Lovelace") { status } }', { n: orderNumber }, { token: ADMIN });
    await new Promise((r) => setTimeout(r, 300));
    expect(agent.updated).toHaveLength(2);
  });

  it('counts every tool against the same limits as REST', async () => {
    const live = await server({ RATE_LIMIT_SUBJECT_READ: '2' });
    const agent = await mcpClient(live.server.url);
    const { orderNumber, payToken } = await live.createOrder();
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).status).toBe(200);
    expect((await agent.call('get_order', { orderNumber, payToken })).isError).toBeUndefined();
    const refused = await agent.call('get_order', { orderNumber, payToken });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).status).toBe(429);
  });

  it('offers the staff tools only with the staff bearer token', async () => {
    const live = await server();
    const { orderNumber, payToken } = await live.createOrder();
    await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: ADMIN }] as Array<Record<string, string>>) {
      const attendee = await mcpClient(live.server.url, { headers });
      expect((await attendee.client.listTools()).tools.map((t) => t.name).sort()).toEqual(PUBLIC_TOOLS);
      const refused = await attendee.call('advance_order', { orderNumber, status: 'ready' });
      expect(refused.isError).toBe(true);
      // Said as REST says it (the SDK's "Tool advance_order not found" told a developer nothing of the header).
      expect(refused.structuredContent).toMatchObject({ ok: false, code: 'unauthorized', retryable: false });
      expect(textOf(refused)).toContain('Authorization: Bearer ADMIN_TOKEN');
    }
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('received');

    const staff = await mcpClient(live.server.url, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect((await staff.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...STAFF_TOOLS, ...PUBLIC_TOOLS].sort());
    const listed = await staff.call('list_orders', { status: ['received'] });
    expect(listed.structuredContent.orders).toEqual([expect.objectContaining({ orderNumber, status: 'received', name: 'Ada Lovelace' })]);
    expect(JSON.stringify(listed.structuredContent)).not.toContain(payToken);
    expect((await staff.call('advance_order', { orderNumber, status: 'ready' })).structuredContent).toMatchObject({ ok: true, status: 'ready' });
    const wrongName = await staff.call('collect_order', { orderNumber, collectorName: 'Grace Hopper' });
    expect(wrongName.structuredContent).toMatchObject({ ok: false });
    expect((await staff.call('collect_order', { orderNumber, collectorName: 'Ada Lovelace' })).structuredContent.status).toBe('collected');
  });

  it('answers requests outside a session as the SDK transport does, ends a session on DELETE, and refuses unlisted origins', async () => {
    const live = await server({ CORS_ORIGINS: 'https://agents.example' });
    const url = `${live.server.url}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await fetch(url, { method: 'POST', headers, body: list })).status).toBe(400);
    expect((await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'unknown' }, body: list })).status).toBe(404);
    expect((await fetch(url, { method: 'PUT', headers, body: list })).status).toBe(405);
    expect((await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: list })).status).toBe(415);

    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const refused = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: initialize });
    expect(refused.status).toBe(403);
    // An initialize the SDK would refuse opens no session: one answer type only, or no params (it was -32603 with a
    // working session id).
    const jsonOnly = await fetch(url, { method: 'POST', headers: { ...headers, accept: 'application/json' }, body: initialize });
    expect([jsonOnly.status, jsonOnly.headers.get('mcp-session-id')]).toEqual([406, null]);
    const bare = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize' }) });
    expect([bare.status, bare.headers.get('mcp-session-id')]).toEqual([400, null]);
    expect(await bare.json()).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringMatching(/^Invalid params: params: /u) } });
    const opened = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'https://agents.example' }, body: initialize });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('access-control-allow-origin')).toBe('https://agents.example');
    expect(opened.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect((await opened.json()).result.serverInfo.name).toBe('sleeve-gateway');
    const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    expect((await fetch(url, { method: 'POST', headers: inSession, body: list })).status).toBe(200);
    expect((await fetch(url, { method: 'DELETE', headers: inSession })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', headers: inSession, body: list })).status).toBe(404);
  });

  it('ends the standalone streams it holds when the server shuts down, rather than cutting them', async () => {
    const { gateway } = await testGateway();
    const running = await startServer(gateway, { port: 0, host: '127.0.0.1' }); // closed here, by the test
    const url = `${running.url}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const opened = await fetch(url, { method: 'POST', headers, body: JSON.stringify(init) });
    await opened.text();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': opened.headers.get('mcp-session-id')! } });
    expect(stream.status).toBe(200);
    const ended = stream.text(); // a stream cut by the grace timer would reject instead
    await running.close(10_000);
    await expect(ended).resolves.toBe('');
  });

  it('logs /mcp requests by route, and no payToken on any line', async () => {
    const lines: string[] = [];
    const live = await server({}, createLogger('debug', (line) => lines.push(line)));
    const agent = await mcpClient(live.server.url, { elicit: acceptAll });
    const created = (await agent.call('create_order', { ...VALID_ORDER })).structuredContent;
    const uri = `sleeve://orders/${created.orderNumber}?t=${created.payToken}`;
    await agent.client.readResource({ uri });
    await agent.client.subscribeResource({ uri });
    await agent.call('get_order', { orderNumber: created.orderNumber, payToken: created.payToken });
    await agent.call('pay_order', { orderNumber: created.orderNumber, payToken: created.payToken, method: 'vendor_card' });
    await agent.client.readResource({ uri: `sleeve://orders/${created.orderNumber}?t=${created.payToken}x` }).catch(() => undefined);
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.route === '/mcp');
    expect(requests.length).toBeGreaterThan(5);
    expect(lines.filter((l) => l.includes(created.payToken))).toEqual([]);
  });
});
