/**
 * WebSocket upgrades in the request logs and the HTTP metrics (docs/operations.md#request-logs, #metrics): every
 * upgrade on the node server, accepted (101) or refused (403 for an origin outside CORS_ORIGINS, 400 for another path
 * or a handshake ws cannot read, 405 for another method, 503 once the transport is closing), writes one request line —
 * GET, the route template, its status, the client as TRUST_PROXY reads it, the caller's x-request-id — and is counted
 * in `sleeve_http_request_duration_seconds`. Before, an upgrade left neither: an operator behind a proxy could not
 * count the sockets opened or refused, nor find the client of a refused one.
 */
import { connect } from 'node:net';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../../src/kernel/logger.ts';
import { liveServer, type LiveServer } from '../support/live-server.ts';
import { eventually } from '../support/receiver.ts';
import { parsePrometheusText } from './prometheus-text.ts';

interface Line {
  msg: string;
  [field: string]: unknown;
}

function capture() {
  const raw: string[] = [];
  const logger = createLogger('debug', (line) => raw.push(line));
  const requests = () => raw.map((line) => JSON.parse(line) as Line).filter((l) => l.msg === 'request');
  /** The request lines once `count` are written, or those written within 2 s (then the test's own check fails). */
  const settled = (count: number) => eventually(() => requests().length >= count, 2_000).then(requests, requests);
  return { logger, raw, requests, settled };
}

const SHOP = 'http://shop.example';
// The server listens on loopback: with TRUST_PROXY=loopback the client is the address its proxy forwards.
const ENV = { CORS_ORIGINS: SHOP, TRUST_PROXY: 'loopback' };

/** `count` of sleeve_http_request_duration_seconds for route, method and status, read from a real GET /metrics. */
async function counted(live: LiveServer, route: string, method: string, status: string): Promise<number> {
  const families = parsePrometheusText(await (await fetch(`${live.server.url}/metrics`)).text());
  const samples = families.get('sleeve_http_request_duration_seconds')?.samples ?? [];
  const sample = samples.find((s) => s.name.endsWith('_count') && s.labels.route === route && s.labels.method === method && s.labels.status === status);
  return sample?.value ?? 0;
}

/** A raw `ws` upgrade: 'open' (then closed) with the 101's x-request-id, or the refusal's status and x-request-id. */
function upgrade(url: string, headers: Record<string, string>, origin?: string): Promise<{ status: number | 'open'; requestId: unknown }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { headers, ...(origin ? { origin } : {}) });
    socket.on('upgrade', (response) => {
      socket.on('open', () => {
        resolve({ status: 'open', requestId: response.headers['x-request-id'] });
        socket.close();
      });
    });
    socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0, requestId: response.headers['x-request-id'] }));
    socket.on('error', () => {});
  });
}

/** Sends `head` as a whole request on a raw connection; answers the status of what comes back. */
function rawUpgrade(port: number, head: string): Promise<number> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/u.exec(answer)?.[1] ?? 0)));
    socket.on('error', () => {});
  });
}

const handshake = (method: string, path: string, version: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: ${version}\r\nx-request-id: raw-${method}-${version}\r\n\r\n`;

describe('a WebSocket upgrade', () => {
  it('accepted by graphql-ws: one request line (GET /graphql 101, the forwarded client, the caller\'s id, echoed) and one count', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger, env: ENV });
    const headers = { 'x-request-id': 'ws-open-1', 'x-forwarded-for': '203.0.113.7' };
    class Forwarded extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers, origin: SHOP });
      }
    }
    const client = createClient({ url: live.wsUrl, webSocketImpl: Forwarded, retryAttempts: 0, lazy: false });
    const result = await new Promise((resolve, reject) => client.subscribe({ query: '{ sleeveOptions { charLimit } }' }, { next: resolve, error: reject, complete: () => {} }));
    expect(result).toMatchObject({ data: { sleeveOptions: { charLimit: expect.any(Number) } } });
    await client.dispose();
    // A second socket, with no id of its own: one is made, and the 101 carries it.
    const second = await upgrade(live.wsUrl, {});

    const upgrades = await logs.settled(2);
    expect(upgrades.map((line) => line.status)).toEqual([101, 101]);
    const forwarded = upgrades.find((line) => line.requestId === 'ws-open-1')!;
    expect(Object.keys(forwarded)).toEqual(['time', 'level', 'msg', 'requestId', 'method', 'route', 'status', 'durationMs', 'client']);
    expect(forwarded).toMatchObject({ level: 'info', method: 'GET', route: '/graphql', status: 101, client: '203.0.113.7' });
    expect(typeof forwarded.durationMs).toBe('number');
    expect(upgrades.filter((line) => line.requestId !== 'ws-open-1').map((line) => line.client)).toEqual(['127.0.0.1']);
    expect(await counted(live, '/graphql', 'GET', '101')).toBe(2);
    expect(second).toEqual({ status: 'open', requestId: upgrades[1]!.requestId });
    expect(second.requestId).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/u);
  });

  it('refused: one line and one count each, with the refusal\'s status, the route, the client and the id, echoed', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger, env: ENV });
    const forbidden = await upgrade(live.wsUrl, { 'x-request-id': 'ws-evil-1', 'x-forwarded-for': '198.51.100.4' }, 'http://evil.example');
    const elsewhere = await upgrade(live.wsUrl.replace('/graphql', '/api/orders/1001?t=secret'), { 'x-request-id': 'ws-path-1' });
    expect(await rawUpgrade(live.server.port, handshake('GET', '/graphql', '7'))).toBe(400);
    expect(await rawUpgrade(live.server.port, handshake('POST', '/graphql', '13'))).toBe(405);

    const lines = await logs.settled(4);
    expect(lines.map((line) => [line.requestId, line.method, line.route, line.status, line.client])).toEqual([
      ['ws-evil-1', 'GET', '/graphql', 403, '198.51.100.4'],
      ['ws-path-1', 'GET', 'unmatched', 400, '127.0.0.1'],
      ['raw-GET-7', 'GET', '/graphql', 400, '127.0.0.1'],
      ['raw-POST-13', 'POST', '/graphql', 405, '127.0.0.1'],
    ]);
    expect(logs.raw.join('\n')).not.toContain('secret');
    expect(await counted(live, '/graphql', 'GET', '403')).toBe(1);
    expect(await counted(live, 'unmatched', 'GET', '400')).toBe(1);
    expect(await counted(live, '/graphql', 'GET', '400')).toBe(1);
    expect(await counted(live, '/graphql', 'POST', '405')).toBe(1);
    expect(await counted(live, '/graphql', 'GET', '101')).toBe(0);
    expect([forbidden, elsewhere]).toEqual([
      { status: 403, requestId: 'ws-evil-1' },
      { status: 400, requestId: 'ws-path-1' },
    ]);
  });

  it('once the transport is closing (shutdown): 503, logged and counted', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger, env: ENV });
    await live.server.ws.dispose();
    expect(await upgrade(live.wsUrl, { 'x-request-id': 'ws-late-1' })).toEqual({ status: 503, requestId: 'ws-late-1' });
    const lines = await logs.settled(1);
    expect(lines.map((line) => [line.requestId, line.route, line.status])).toEqual([['ws-late-1', '/graphql', 503]]);
    expect(await counted(live, '/graphql', 'GET', '503')).toBe(1);
  });
});
