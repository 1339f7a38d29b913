/**
 * The MCP door as JSON-RPC over raw HTTP, where the SDK's Client would hide what goes on the wire: content a client's
 * protocol version has (resource_link only from 2025-06-18), an initialize refused by the rate limit (its id, and
 * when to try again), and resources/read params that are not its shape (invalid params, in one sentence).
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { RAW_HEADERS, rawSession } from './mcp-support.ts';

const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('the MCP door on the wire', () => {
  it.each([
    ['2024-11-05', true],
    ['2025-03-26', true],
    ['2025-06-18 sent at initialize only (no header after: 2025-03-26 is assumed)', false],
  ])('sends a client at %s only text content, never resource_link', async (label, header) => {
    const live = await liveServer();
    const session = await rawSession(`${live.server.url}/mcp`, { protocolVersion: label.slice(0, 10), header });
    const first = await session.call('create_order', { ...VALID_ORDER });
    const created = await session.call('create_order', { ...VALID_ORDER, confirmation: first.structuredContent.confirmation });
    expect(created.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
    expect(created.content.map((c: { type: string }) => c.type)).toEqual(['text']);
    const { orderNumber, payToken } = created.structuredContent;
    const got = await session.call('get_order', { orderNumber, payToken });
    expect(got.content.map((c: { type: string }) => c.type)).toEqual(['text']);
  });

  it('still links the order for a client at 2025-06-18', async () => {
    const live = await liveServer();
    const session = await rawSession(`${live.server.url}/mcp`, { protocolVersion: '2025-06-18' });
    const { orderNumber, payToken } = await live.createOrder();
    const got = await session.call('get_order', { orderNumber, payToken });
    expect(got.content.map((c: { type: string }) => c.type)).toEqual(['text', 'resource_link']);
  });

  it('refuses an initialize over the read limit (its group: session) with its id, and retryAfter beside the Error body', async () => {
    const live = await liveServer({ env: { RATE_LIMIT_READ: '1' } });
    const open = (id: number) => fetch(`${live.server.url}/mcp`, { method: 'POST', headers: RAW_HEADERS, body: JSON.stringify(initialize(id)) });
    expect((await open(1)).status).toBe(200);
    const refused = await open(2);
    expect([refused.status, refused.headers.get('mcp-session-id')]).toEqual([429, null]);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32000, data: { ok: false, code: 'rate_limited', retryable: true, retryAfter: seconds } } });
  });

  it.each([
    ['resources/read', { uri: 5 }],
    ['resources/read', {}],
    ['resources/subscribe', { uri: null }],
  ])('answers %s with params %o with invalid params in one sentence', async (method, params) => {
    const live = await liveServer();
    const session = await rawSession(`${live.server.url}/mcp`);
    const answer = await session.rpc({ jsonrpc: '2.0', id: 4, method, params });
    expect(answer).toMatchObject({ id: 4, error: { code: -32602, message: 'Invalid params: params.uri must be a resource URI (a string), such as sleeve://orders/{orderNumber}?t={payToken}.' } });
  });

  it('refuses a body nested deeper than 64 levels with 400, as every other door does, before or within a session', async () => {
    // A security review: /mcp took 500,000 levels (each such body held the event loop about four times a flat one's time).
    const live = await liveServer();
    const nested = (levels: number) => ({ ...initialize(1), params: { ...initialize(1).params, capabilities: { experimental: JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels)) } } });
    const open = (body: unknown, headers: Record<string, string> = RAW_HEADERS) => fetch(`${live.server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
    // The initialize nests 3 levels (the message, params, capabilities) around the experimental capabilities' value.
    const fits = await open(nested(61));
    expect([fits.status, (await fits.text()).length > 0]).toEqual([200, true]);
    const deep = await open(nested(62));
    expect([deep.status, deep.headers.get('mcp-session-id')]).toEqual([400, null]);
    expect(await deep.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: The JSON body is nested deeper than 64 levels.' } });
    const session = await rawSession(`${live.server.url}/mcp`);
    const inSession = await session.post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_sleeve_options', arguments: JSON.parse('{"a":'.repeat(70) + '1' + '}'.repeat(70)) } });
    expect(inSession.status).toBe(400);
  });
});
