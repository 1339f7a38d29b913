/**
 * docs/edge.md#bounds: what one client address may hold open at once. An outside security review opened 1,000
 * graphql-ws sockets × 100 public subscriptions from one address, with no credential, and a plain REST read then
 * waited 83 s: the bound of 100 operations per socket held, and more sockets went round it. Here the bounds are
 * small (3 connections, 5 streams) so that real sockets, the real graphql-ws client and real SSE streams reach them:
 *  - the socket past the bound is refused with 429 and Retry-After before the handshake; one closed frees its place;
 *  - the subscription past the bound, on any of the address's sockets, is refused alone (TOO_MANY_OPERATIONS), the
 *    others go on receiving; one ended frees its place;
 *  - an SSE stream holds a place while it is open (429 past the bound), and so does an MCP session's standalone
 *    stream (GET /mcp), refused in JSON-RPC's terms;
 *  - behind a trusted proxy each client address has its own bounds; without one, X-Forwarded-For changes nothing.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawSession } from '../agents/mcp-support.ts';
import { readyOrdersUpTo } from '../browser/screens.ts';
import { afterThisTest } from '../support/gateway.ts';
import { liveServer, subscribe, type LiveServer } from '../support/live-server.ts';
import { eventually } from '../support/receiver.ts';

const BOUNDS = { MAX_CONNECTIONS_PER_ADDRESS: '3', MAX_STREAMS_PER_ADDRESS: '5' };
const BOARD = 'subscription { pickupBoard { change board { orderNumber } } }';

/** A raw graphql-transport-ws socket: resolves with it once open, or with the status of the refused handshake. */
function socketOf(live: LiveServer, headers: Record<string, string> = {}): Promise<{ socket?: WebSocket; status?: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(live.wsUrl, 'graphql-transport-ws', { headers });
    afterThisTest(async () => socket.terminate());
    socket.on('open', () => resolve({ socket }));
    socket.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] }));
    socket.on('error', () => {});
  });
}

/** An SSE stream of the distinct connections mode: its status, and how to end it. */
async function sseStream(live: LiveServer): Promise<{ status: number; body: string; close(): void }> {
  const abort = new AbortController();
  afterThisTest(async () => abort.abort());
  const response = await fetch(`${live.server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: BOARD }),
    signal: abort.signal,
  });
  const body = response.status === 200 ? '' : await response.text();
  return { status: response.status, body, close: () => abort.abort() };
}

/** A new MCP session's standalone stream (GET /mcp): its status, its body when refused, and how to end it. */
async function mcpStream(live: LiveServer): Promise<{ status: number; retryAfter: string | null; body: string; close(): void }> {
  const url = `${live.server.url}/mcp`;
  const session = await rawSession(url);
  const abort = new AbortController();
  afterThisTest(async () => abort.abort());
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-06-18' },
    signal: abort.signal,
  });
  const body = response.status === 200 ? '' : await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, close: () => abort.abort() };
}

describe('what one client address may hold open', () => {
  it('refuses the socket past MAX_CONNECTIONS_PER_ADDRESS with 429 before the handshake, X-Forwarded-For or not; a closed one frees its place', async () => {
    const live = await liveServer({ env: BOUNDS });
    const open = await Promise.all([socketOf(live), socketOf(live), socketOf(live)]);
    expect(open.map((o) => o.socket !== undefined)).toEqual([true, true, true]);
    // TRUST_PROXY is unset: the header is the client's own word, and it shares its peer's bounds.
    const refused = await socketOf(live, { 'x-forwarded-for': '203.0.113.9' });
    expect(refused).toEqual({ status: 429, retryAfter: '10' });
    // The rest of the service answers this address as before.
    expect((await fetch(`${live.server.url}/api/sleeve-options`)).status).toBe(200);
    open[0]!.socket!.close();
    const again = await eventually(async () => {
      const attempt = await socketOf(live);
      return attempt.socket ? attempt : null;
    });
    expect(again.socket!.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses the subscription past MAX_STREAMS_PER_ADDRESS alone, across sockets; the others keep streaming; an ended one frees its place', async () => {
    const live = await liveServer({ env: BOUNDS });
    const [first, second] = [live.client(), live.client()];
    const running = [first, first, first, second, second].map((client) => subscribe(client, BOARD));
    for (const stream of running) expect((await stream.next()).pickupBoard.change).toBe('SNAPSHOT');

    const past = subscribe(second, BOARD);
    const [error] = (await past.failed) as Array<{ message: string; extensions: { code: string } }>;
    expect(error!.extensions.code).toBe('TOO_MANY_OPERATIONS');
    expect(error!.message).toContain('from your address (at most 5 at once)');

    // Every running stream still hears the board change.
    await readyOrdersUpTo(live.gateway.services, [], 1, () => 'Ada Lovelace');
    for (const stream of running) expect((await stream.next()).pickupBoard.change).toBe('READY');

    running[0]!.dispose();
    const next = await eventually(async () => {
      const attempt = subscribe(second, BOARD);
      const outcome = await Promise.race([attempt.next().then(() => 'started'), attempt.failed.then(() => 'refused')]);
      return outcome === 'started' ? attempt : null;
    });
    expect(next.all[0].pickupBoard.change).toBe('SNAPSHOT');
  });

  it('counts an SSE stream as a connection while it is open: 429 with Retry-After past the bound, its place back once it ends', async () => {
    const live = await liveServer({ env: BOUNDS });
    const sockets = await Promise.all([socketOf(live), socketOf(live)]);
    expect(sockets.every((s) => s.socket)).toBe(true);
    const stream = await sseStream(live);
    expect(stream.status).toBe(200);
    const refused = await sseStream(live);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ errors: [{ extensions: { code: 'TOO_MANY_OPERATIONS' } }] });
    expect((await socketOf(live)).status).toBe(429);
    stream.close();
    await eventually(async () => {
      const attempt = await sseStream(live);
      attempt.close();
      return attempt.status === 200;
    });
  });

  it('counts an MCP session\'s standalone stream in the same bound: past it, 429 in JSON-RPC\'s terms; its place back once it ends', async () => {
    // Before, an address held as many GET /mcp streams as it opened sessions, round the bound the other streams keep.
    const live = await liveServer({ env: BOUNDS });
    const sockets = await Promise.all([socketOf(live), socketOf(live)]);
    expect(sockets.every((s) => s.socket)).toBe(true);
    const stream = await mcpStream(live);
    expect(stream.status).toBe(200);
    const refused = await mcpStream(live);
    expect([refused.status, refused.retryAfter]).toEqual([429, '10']);
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('(at most 3 at once)'), data: { code: 'rate_limited', retryable: true, retryAfter: 10 } },
    });
    expect((await socketOf(live)).status).toBe(429);
    stream.close();
    await eventually(async () => {
      const attempt = await mcpStream(live);
      attempt.close();
      return attempt.status === 200;
    });
  });

  it('counts an SSE subscription among the address\'s streams while it runs, and gives its place back when it ends', async () => {
    const live = await liveServer({ env: { ...BOUNDS, MAX_STREAMS_PER_ADDRESS: '1' } });
    const stream = await sseStream(live);
    expect(stream.status).toBe(200);
    const client = live.client();
    const refused = subscribe(client, BOARD);
    expect(((await refused.failed) as Array<{ extensions: { code: string } }>)[0]!.extensions.code).toBe('TOO_MANY_OPERATIONS');
    stream.close();
    await eventually(async () => {
      const attempt = subscribe(client, BOARD);
      const outcome = await Promise.race([attempt.next().then(() => 'started'), attempt.failed.then(() => 'refused')]);
      attempt.dispose();
      return outcome === 'started';
    });
  });

  it('behind a trusted proxy, bounds each client address the proxy names, not the proxy', async () => {
    const live = await liveServer({ env: { ...BOUNDS, MAX_CONNECTIONS_PER_ADDRESS: '1', TRUST_PROXY: 'loopback' } });
    const a = { 'x-forwarded-for': '203.0.113.1' };
    expect((await socketOf(live, a)).socket).toBeDefined();
    expect((await socketOf(live, a)).status).toBe(429);
    expect((await socketOf(live, { 'x-forwarded-for': '203.0.113.2' })).socket).toBeDefined();
  });
});
