/**
 * A tool's question is answered only by the session it was asked in (mcp/relay.ts): another session that learns the
 * question's id and posts an answer to it changes nothing; the asking session's own answer goes through. Raw HTTP,
 * so the test sees the question's id on the SSE stream as a client would.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { sseMessages } from './mcp-support.ts';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

async function initialize(url: string, capabilities: Record<string, unknown>): Promise<string> {
  const body = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } } };
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

describe("a tool's question and its answer", () => {
  it('is answered only from the session that was asked', async () => {
    const live = await liveServer();
    const url = `${live.server.url}/mcp`;
    const asker = await initialize(url, { elicitation: { form: {} } });
    const other = await initialize(url, {});
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'create_order', arguments: { ...VALID_ORDER } } };
    const stream = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': asker }, body: JSON.stringify(call) });
    const next = sseMessages(stream);
    const question = await next();
    expect(question.method).toBe('elicitation/create');
    expect(question.id).toMatch(/^[A-Za-z0-9_-]+\.[a-z0-9]+\.[0-9]+$/u);

    const yes = { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } };
    const forged = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': other }, body: JSON.stringify(yes) });
    expect(forged.status).toBe(202);
    await new Promise((r) => setTimeout(r, 200));
    expect(await live.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(false);

    const own = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': asker }, body: JSON.stringify(yes) });
    expect(own.status).toBe(202);
    const result = await next();
    expect(result.id).toBe(7);
    expect(result.result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
    expect(await live.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(true);
  });
});
