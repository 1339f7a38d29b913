/**
 * deploy/nginx/sleeve-gateway.conf, tested for real (issue 17, point 5): nginx with that file (only ports,
 * certificate paths and upstream addresses made local: nginx-server.ts) in front of two gateway processes sharing
 * one PostgreSQL schema and one Redis, everything driven over TLS: orders through both doors, graphql-ws
 * subscriptions on both instances, a Server-Sent Events stream that must arrive event by event, and the client
 * address nginx forwards being the one the gateway's limits count. Skipped, saying why, without nginx (.ci/run
 * installs it from Debian), openssl, TEST_DATABASE_URL or TEST_REDIS_URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { startInstances } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { freePorts } from '../support/ports.ts';
import { NGINX, SKIPPED, startNginx } from './nginx-server.ts';
import { tlsClient } from './tls-client.ts';

const PUBLIC_URL = 'https://sleeve.example.org';
const ORDER_UPDATES = 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { orderNumber status } }';

/** Two instances behind nginx; TRUST_PROXY names nginx's address as the instances see it. */
async function behindNginx(env: Record<string, string> = {}) {
  const { processes } = await startInstances('nginx', { ADMIN_TOKEN: 'nginx-admin', TRUST_PROXY: '127.0.0.1', PUBLIC_URL, ...env });
  const upstreams = processes.map((p) => new URL(p.url).host);
  const nginx = await startNginx(NGINX!, upstreams);
  return { nginx, upstreams, client: tlsClient(nginx.ca, nginx.https) };
}

describe.skipIf(SKIPPED)(`deploy/nginx/sleeve-gateway.conf in front of two instances${SKIPPED ? ` (skipped: ${SKIPPED})` : ''}`, () => {
  it('serves orders through both doors over TLS, passes /ready, redirects plain HTTP and keeps metrics and large bodies out', { timeout: 60_000 }, async () => {
    const { nginx, client } = await behindNginx();

    const created = await client.post('/api/orders', VALID_ORDER);
    expect(created.status).toBe(201);
    expect(created.body.payUrl).toMatch(new RegExp(`^${PUBLIC_URL}/pay/${created.body.orderNumber}\\?t=`, 'u'));
    const paid = await client.post(`/api/orders/${created.body.orderNumber}/pay`, { t: created.body.payToken, method: 'vendor_card' });
    expect(paid).toMatchObject({ status: 200, body: { status: 'received', alreadyPaid: false } });
    const looked = await client.request(`/api/orders/${created.body.orderNumber}?t=${created.body.payToken}`);
    expect(looked.json().status).toBe('received');
    // The shipped access log names the path, never its query (the payToken).
    await expect.poll(() => nginx.shippedAccessLog().some((line) => line.includes(`"GET /api/orders/${created.body.orderNumber} HTTP`))).toBe(true);
    expect(nginx.shippedAccessLog().join('\n')).not.toContain(created.body.payToken);

    const gql = async (query: string) => (await client.post('/graphql', { query })).body;
    const order = await gql(`mutation { createOrder(input: { email: "grace@example.com", name: "Grace Hopper", size: "13-inch", font: "Block", thread: "Gold", stitchText: "GRACE" }) { ... on Order { orderNumber payToken } } }`);
    const { orderNumber, payToken } = order.data.createOrder;
    const pay = await gql(`mutation { payOrder(orderNumber: "${orderNumber}", input: { t: "${payToken}", method: VENDOR_CARD }) { ... on PayResult { status alreadyPaid } } }`);
    expect(pay.data.payOrder).toEqual({ status: 'RECEIVED', alreadyPaid: false });
    expect((await gql(`{ order(orderNumber: "${orderNumber}", payToken: "${payToken}") { status } }`)).data.order.status).toBe('RECEIVED');

    const plain = await fetch(`${nginx.http}/api/sleeve-options`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('https://sleeve.example.org/api/sleeve-options');

    const options = await client.request('/api/sleeve-options');
    expect(options.status).toBe(200);
    expect(options.headers['strict-transport-security']).toContain('max-age=');
    expect((await client.request('/metrics')).status).toBe(403);
    // client_max_body_size equals MAX_BODY_BYTES (1 MiB): a body of exactly that size reaches the gateway (which
    // answers in its own shape), one byte more is refused by nginx.
    const body = (bytes: number) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(bytes - 2)}"` });
    const atLimit = await client.request('/api/orders', body(1_048_576));
    expect([atLimit.status, atLimit.json().code]).toEqual([400, 'bad_request']);
    // Refused by nginx unread, in the API's shapes (not nginx's HTML page), readable by a page of another origin.
    const overLimit = await client.request('/api/orders', { ...body(1_048_577), headers: { 'content-type': 'application/json', origin: 'https://app.example.org' } });
    expect([overLimit.status, overLimit.headers['access-control-allow-origin']]).toEqual([413, '*']);
    expect(overLimit.json()).toMatchObject({ ok: false, code: 'bad_request', status: 'error' });
    const overLimitGraphql = await client.request('/graphql', body(1_048_577));
    expect([overLimitGraphql.status, overLimitGraphql.json().errors[0].extensions.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // What a load balancer or orchestrator would probe (on each instance; here through nginx, to show it passes).
    const ready = await client.request('/ready');
    expect([ready.status, ready.json().status]).toEqual([200, 'ready']);
  });

  it('carries graphql-ws subscriptions to both instances, each seeing a pay made through nginx', { timeout: 60_000 }, async () => {
    const { nginx, upstreams, client } = await behindNginx();
    const created = (await client.post('/api/orders', VALID_ORDER)).body;
    const statuses: string[][] = [[], []];
    const clients: Client[] = [];
    // One after the other, each seen to be subscribed: least_conn sends the second WebSocket to the instance that
    // does not hold the first.
    for (const seen of statuses) {
      const ws = createClient({ url: `${nginx.https.replace('https', 'wss')}/graphql`, webSocketImpl: client.WebSocket, retryAttempts: 0 });
      afterThisTest(async () => ws.dispose());
      clients.push(ws);
      await new Promise<void>((first, failed) => {
        ws.subscribe<any>({ query: ORDER_UPDATES, variables: { n: created.orderNumber, t: created.payToken } }, {
          next: ({ data }) => (seen.push(data.orderUpdates.status), first()),
          error: failed,
          complete: () => {},
        });
      });
    }
    const paid = await client.post(`/api/orders/${created.orderNumber}/pay`, { t: created.payToken, method: 'vendor_card' });
    expect(paid.body.status).toBe('received');
    const until = Date.now() + 3_000;
    while (!statuses.every((seen) => seen.includes('RECEIVED')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(statuses).toEqual([['AWAITING_PAYMENT', 'RECEIVED'], ['AWAITING_PAYMENT', 'RECEIVED']]);

    // nginx logs a WebSocket when it closes: the two upgrades went to the two instances, so whichever took the pay,
    // one subscriber saw it through Redis from the other.
    await Promise.all(clients.map((ws) => ws.dispose()));
    let upgrades: string[] = [];
    for (const stop = Date.now() + 3_000; upgrades.length < 2 && Date.now() < stop; await new Promise((r) => setTimeout(r, 50))) {
      upgrades = nginx.accessLog().filter((line) => line.startsWith('GET /graphql 101 '));
    }
    expect(upgrades.map((line) => line.split(' ')[3]).sort()).toEqual([...upstreams].sort());
  });

  it('streams Server-Sent Events one by one: the first event arrives while nothing else happens', { timeout: 60_000 }, async () => {
    const { client } = await behindNginx();
    const created = (await client.post('/api/orders', VALID_ORDER)).body;
    const stream = await client.eventStream(ORDER_UPDATES, { n: created.orderNumber, t: created.payToken });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    // Buffered, this event would wait in nginx until a buffer filled or the stream ended: it must come now.
    expect((await stream.next(3_000)).data.orderUpdates.status).toBe('AWAITING_PAYMENT');
    expect(stream.ended()).toBe(false);
    await client.post(`/api/orders/${created.orderNumber}/pay`, { t: created.payToken, method: 'vendor_card' });
    expect((await stream.next(3_000)).data.orderUpdates.status).toBe('RECEIVED');
    expect(stream.ended()).toBe(false);
    stream.close();
  });

  it("carries an MCP call's question to the agent at once, and the call's answer once the user has answered", { timeout: 60_000 }, async () => {
    const { client } = await behindNginx();
    const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'nginx-test', version: '1' } } };
    const opened = await client.request('/mcp', { method: 'POST', headers: mcp, body: JSON.stringify(initialize) });
    expect(opened.status).toBe(200);
    const session = { ...mcp, 'mcp-session-id': String(opened.headers['mcp-session-id']) };
    await client.request('/mcp', { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_order', arguments: { ...VALID_ORDER } } };
    const stream = await client.streamed('/mcp', { method: 'POST', headers: session, body: JSON.stringify(call) });
    expect(stream.headers['content-type']).toContain('text/event-stream');
    // The question must come while the call waits for the user, not when the call ends.
    await stream.waitFor(/"method":"elicitation\/create"/u);
    // The user's answer, posted as a request of its own (nginx may send it to the other instance), ends the call.
    const id = /"id":"([^"]+)"/u.exec(await stream.waitFor(/"id":"/u))![1];
    const answered = await client.request('/mcp', { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } }) });
    expect(answered.status).toBe(202);
    await stream.waitFor(/orderNumber/u, 5_000);
  });

  it("counts each client address nginx saw, never nginx's own or one a client wrote", { timeout: 60_000 }, async () => {
    // Three lookups that open nothing per address and window (docs/edge.md#wrong-tokens), counted for both
    // instances together (Redis).
    const { client } = await behindNginx({ RATE_LIMIT_READ: '3' });
    let guesses = 0;
    const lookup = (from: string, headers: Record<string, string> = {}) => client.request(`/api/orders/1001?t=guess-${++guesses}`, { from, headers }).then((a) => a.status);
    for (let i = 0; i < 3; i++) expect(await lookup('127.0.0.2')).toBe(404);
    expect(await lookup('127.0.0.2')).toBe(429);
    // A client cannot buy a fresh budget by writing its own X-Forwarded-For: nginx appends the address it saw, and
    // the gateway trusts only nginx (TRUST_PROXY), so it reads that one.
    expect(await lookup('127.0.0.2', { 'x-forwarded-for': '198.51.100.7' })).toBe(429);
    // Another attendee, through the same nginx, has a budget of its own.
    expect(await lookup('127.0.0.3')).toBe(404);
  });

  it("keeps the payToken out of nginx's error log when an instance is down, and says the failure in the access log", { timeout: 60_000 }, async () => {
    // One instance answers; the other address refuses connections, as an instance that crashed or is restarting.
    const { processes } = await startInstances('nginx', { ADMIN_TOKEN: 'nginx-admin', TRUST_PROXY: '127.0.0.1', PUBLIC_URL });
    const [dead] = await freePorts(1);
    const nginx = await startNginx(NGINX!, [new URL(processes[0]!.url).host, `127.0.0.1:${dead}`]);
    const client = tlsClient(nginx.ca, nginx.https);
    const created = (await client.post('/api/orders', VALID_ORDER)).body;
    for (let i = 0; i < 4; i++) {
      expect((await client.request(`/pay/${created.orderNumber}?t=${created.payToken}`)).status).toBe(200);
      expect((await client.request(`/api/orders/${created.orderNumber}?t=${created.payToken}`)).status).toBe(200);
    }
    await expect.poll(() => nginx.shippedAccessLog().some((line) => / 502, 200$/u.test(line))).toBe(true);
    // nginx wrote "connect() failed … request: "GET /pay/1001?t=<payToken>"" at level error, at every deploy.
    expect(nginx.errors()).not.toContain(created.payToken);
  });

  it('leaves no gap in a rolling restart: an instance back on its port serves at once, though nginx saw it refuse just before', { timeout: 60_000 }, async () => {
    const { processes, env } = await startInstances('nginx', { ADMIN_TOKEN: 'nginx-admin', TRUST_PROXY: '127.0.0.1', PUBLIC_URL }, 1);
    const b = processes[0]!;
    const [portA] = await freePorts(1);
    const a = await startProcess({ ...env, PORT: String(portA) });
    const nginx = await startNginx(NGINX!, [`127.0.0.1:${portA}`, new URL(b.url).host]);
    const client = tlsClient(nginx.ca, nginx.https);
    const answered = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await client.request('/api/sleeve-options')).status);
      return statuses;
    };
    // A restarts: while it is away, B answers, and nginx meets A's refused connections.
    a.child.kill('SIGTERM');
    await a.exited;
    expect(await answered()).toEqual([200, 200, 200, 200, 200, 200]);
    await startProcess({ ...env, PORT: String(portA) });
    // Then B, at once: A is back. With max_fails=3 fail_timeout=10s nginx had left A out for 10 s and, B gone,
    // had nothing to send to (an operator's review: 116 requests answered 503 in a careful rolling restart).
    b.child.kill('SIGTERM');
    await b.exited;
    expect(await answered()).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('answers the API\'s 503 unavailable, in JSON with Retry-After and CORS, when no instance answers (not its HTML 502 page)', { timeout: 60_000 }, async () => {
    const ports = await freePorts(2);
    const nginx = await startNginx(NGINX!, ports.map((port) => `127.0.0.1:${port}`));
    const client = tlsClient(nginx.ca, nginx.https);
    const rest = await client.request('/api/sleeve-options');
    expect(rest.status).toBe(503);
    expect(rest.headers['retry-after']).toBe('1');
    // CORS only for a request with an Origin, as the gateway answers: a page of another origin reads Retry-After.
    expect(rest.headers['access-control-allow-origin']).toBeUndefined();
    const cors = await client.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://app.example.org' }, body: '{"query":"{ eventInfo }"}' });
    expect([cors.status, cors.headers['access-control-allow-origin'], cors.headers['access-control-expose-headers']]).toEqual([503, '*', 'retry-after, x-request-id']);
    expect(rest.json()).toMatchObject({ ok: false, code: 'unavailable', retryable: true, status: 'error' });
    const graphql = await client.post('/graphql', { query: '{ eventInfo }' });
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors[0].extensions).toEqual({ code: 'UNAVAILABLE', retryable: true });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nginx-test', version: '1' } } };
    const mcp = await client.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
    expect([mcp.status, mcp.headers['retry-after']]).toEqual([503, '1']);
    expect(mcp.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'unavailable', retryable: true, retryAfter: 1 } } });
  });

  it.skipIf(!hasChromium)("lets a page of another origin read that 503 in Chromium: nginx approves the preflight, not only the answer", { timeout: 60_000 }, async () => {
    const ports = await freePorts(2);
    const nginx = await startNginx(NGINX!, ports.map((port) => `127.0.0.1:${port}`));
    // The page's own origin: a server of its own, as a frontend app's is.
    const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((listening) => app.listen(0, '127.0.0.1', listening));
    afterThisTest(() => new Promise<void>((closed) => app.close(() => closed())));
    const { page } = await openPage(await launchBrowser(), { ignoreHTTPSErrors: true });
    await page.goto(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
    // JSON bodies, and an Apollo-style header: each makes the browser send a preflight first.
    const seen = await page.evaluate(async (base) => {
      const post = async (path: string, body: unknown) => {
        try {
          const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', 'apollographql-client-name': 'app' }, body: JSON.stringify(body) });
          return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
        } catch (error) {
          return { error: String(error) };
        }
      };
      return [await post('/graphql', { query: '{ eventInfo }' }), await post('/api/orders', {})];
    }, nginx.https);
    // Before, the preflight got the 503 and failed: both were "TypeError: Failed to fetch", as if offline.
    expect(seen).toEqual([
      { status: 503, retryAfter: '1', body: { errors: [{ message: 'The service is restarting: try again in a moment.', extensions: { code: 'UNAVAILABLE', retryable: true } }] } },
      { status: 503, retryAfter: '1', body: expect.objectContaining({ ok: false, code: 'unavailable', retryable: true }) },
    ]);
    expect(nginx.accessLog().filter((line) => line.startsWith('OPTIONS')).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual(['OPTIONS /graphql 204', 'OPTIONS /api/orders 204']);
    // An OPTIONS that is no preflight (no Origin) is still the outage answer, and a preflight approves only what it asked.
    const client = tlsClient(nginx.ca, nginx.https);
    expect((await client.request('/graphql', { method: 'OPTIONS' })).status).toBe(503);
    const preflight = await client.request('/graphql', { method: 'OPTIONS', headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' } });
    expect([preflight.status, preflight.headers['access-control-allow-methods'], preflight.headers['access-control-allow-headers'], preflight.headers['access-control-max-age']]).toEqual([204, 'POST', undefined, '0']);
  });
});
