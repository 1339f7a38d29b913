/**
 * Request logs (CONTRACT §7, docs/operations.md#request-logs): one JSON line per request — request id, method, route
 * template, status, duration, client — with `x-request-id` taken from the request when it is a short printable
 * token, made otherwise, echoed on every answer of both doors and on every line the request causes. Secrets never
 * reach a line: the flow in test/ops/log-secrets.test.ts; here, the WebSocket defect that once logged a payToken.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { VALID_ORDER, testGateway } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { startProcess } from '../support/process.ts';
import { eventually } from '../support/receiver.ts';

interface Line {
  time: string;
  level: string;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** A logger that keeps every line (debug and up), parsed, and the raw text. */
function capture() {
  const raw: string[] = [];
  const logger = createLogger('debug', (line) => raw.push(line));
  return { logger, raw, lines: () => raw.map((line) => JSON.parse(line) as Line), requests: () => raw.map((line) => JSON.parse(line) as Line).filter((l) => l.msg === 'request') };
}

const GENERATED_ID = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/u;

describe('a failed WebSocket holdCountdown', () => {
  it('logs neither its document nor the payToken written in it', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger });
    const a = await live.createOrder();
    await live.createOrder({ email: 'grace@example.com' });
    // The token of order 1001, valid, written into a document about 1002: NOT_FOUND. On a line short enough that
    // graphql-js would print it whole around the error's location.
    const mismatched = `subscription {\n  holdCountdown(orderNumber: "1002", payToken: "${a.payToken}") { secondsLeft }\n}`;
    const client = live.client();
    const refused = subscribe(client, mismatched);
    expect(await refused.failed).toMatchObject([{ extensions: { code: 'NOT_FOUND' } }]);
    // An unexpected failure with the right token: the database is gone; yoga masks it and logs it at error.
    await live.gateway.database.destroy();
    const failing = subscribe(client, `subscription {\n  holdCountdown(orderNumber: "${a.orderNumber}", payToken: "${a.payToken}") { secondsLeft }\n}`);
    expect(await failing.failed).toMatchObject([{ message: 'Unexpected error.' }]);

    const text = logs.raw.join('\n');
    expect(text).not.toContain(a.payToken);
    expect(text).not.toContain('holdCountdown(');
    // Not vacuous: both failures were logged — the expected one at debug, the unexpected one at error, with the
    // cause that was masked.
    const graphql = logs.lines().filter((line) => line.msg === 'graphql');
    expect(graphql.map((line) => line.level).sort()).toEqual(['debug', 'error']);
    expect(JSON.stringify(graphql.find((line) => line.level === 'error'))).toMatch(/destroyed|closed|not open/iu);
  });
});

describe('the request line', () => {
  it('is written once per request on the node path, with the route template, and x-request-id echoed', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger });
    const url = live.server.url;
    const options = await fetch(`${url}/api/sleeve-options`, { headers: { 'x-request-id': 'client-id.1:a_b' } });
    expect(options.headers.get('x-request-id')).toBe('client-id.1:a_b');
    const created = await fetch(`${url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) });
    const { orderNumber, payToken } = await created.json();
    const lookup = await fetch(`${url}/api/orders/${orderNumber}?t=${payToken}`);
    const page = await fetch(`${url}/pay/${orderNumber}`);
    const unknown = await fetch(`${url}/no/such/path/${payToken}`);
    const body = JSON.stringify({ query: '{ sleeveOptions { charLimit } }' });
    const graphql = [];
    for (let i = 0; i < 2; i++) graphql.push(await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    const answers = [options, created, lookup, page, unknown, ...graphql];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    expect(ids.slice(1).every((id) => GENERATED_ID.test(id!))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);

    const lines = logs.requests();
    expect(lines.map((line) => line.requestId)).toEqual(ids);
    expect(lines.map((line) => [line.method, line.route, line.status])).toEqual([
      ['GET', '/api/sleeve-options', 200],
      ['POST', '/api/orders', 201],
      ['GET', '/api/orders/:orderNumber', 200],
      ['GET', '/pay/:orderNumber', 200],
      ['GET', 'unmatched', 404],
      ['POST', '/graphql', 200],
      ['POST', '/graphql', 200],
    ]);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['time', 'level', 'msg', 'requestId', 'method', 'route', 'status', 'durationMs', 'client']);
      expect(line).toMatchObject({ level: 'info', client: '127.0.0.1' });
      expect(line.durationMs).toBeGreaterThan(0);
    }
    // The route, never the path: no order number, no token from the query string or the path.
    expect(logs.raw.join('\n')).not.toContain(payToken);
  });

  it('counts a client that leaves mid-body as 499, not as a failure of ours; /mcp echoes x-request-id too', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger });
    const { port } = new URL(live.server.url);
    const paths = ['/api/orders', '/graphql', '/api/orders/1001/pay'];
    await Promise.all(
      paths.map(
        (path) =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => {
              socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
              setTimeout(() => socket.destroy(), 100);
            });
            socket.on('close', () => resolve());
          }),
      ),
    );
    await eventually(() => logs.requests().length === paths.length);
    expect(logs.requests().map((line) => line.status)).toEqual([499, 499, 499]);
    expect(logs.lines().filter((line) => line.level === 'error')).toEqual([]);
    const mcp = await fetch(`${live.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'agent-call-1' }, body: '{}' });
    expect(mcp.headers.get('x-request-id')).toBe('agent-call-1');
  });

  it('replaces an id that is not a short printable token, or that reads as a card number', async () => {
    const live = await liveServer();
    for (const sent of ['has space', 'x'.repeat(129), 'é', '4242-4242-4242-4242', '4242.4242.4242.4242', '4242_4242:4242.4242', '']) {
      const answer = await fetch(`${live.server.url}/health`, { headers: { 'x-request-id': sent } });
      expect(answer.headers.get('x-request-id')).toMatch(GENERATED_ID);
    }
    const uuid = 'da124634-2366-4510-8416-9c57f0534c01';
    expect((await fetch(`${live.server.url}/health`, { headers: { 'x-request-id': uuid } })).headers.get('x-request-id')).toBe(uuid);
  });

  it('is written by the in-memory gateway too, and x-request-id echoed by both doors', async () => {
    const logs = capture();
    const t = await testGateway({ logger: logs.logger });
    const rest = await t.rest('GET', '/api/sleeve-options', undefined, { 'x-request-id': 'mem-rest' });
    expect(rest.headers.get('x-request-id')).toBe('mem-rest');
    const answer = await t.gateway.fetch(
      new Request('http://sleeve.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'mem-gql' }, body: JSON.stringify({ query: '{ sleeveOptions { charLimit } }' }) }),
    );
    expect(answer.headers.get('x-request-id')).toBe('mem-gql');
    expect((await answer.json()).data.sleeveOptions.charLimit).toBeGreaterThan(0);
    expect(logs.requests().map((line) => [line.requestId, line.route, line.status])).toEqual([
      ['mem-rest', '/api/sleeve-options', 200],
      ['mem-gql', '/graphql', 200],
    ]);
  });
});

describe('the request id on every line a request causes', () => {
  const CREATE = 'mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber } } }';

  it('reaches the lines a service writes, on REST and on both GraphQL paths', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger });
    const post = (path: string, id: string, body: unknown) =>
      fetch(`${live.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': id }, body: JSON.stringify(body) });
    await post('/api/orders', 'rest-create', VALID_ORDER);
    // The first request of a document goes through yoga, the second through the fast JSON path.
    await post('/graphql', 'yoga-create', { query: CREATE, variables: { input: { ...VALID_ORDER, email: 'b@example.com' } } });
    await post('/graphql', 'fast-create', { query: CREATE, variables: { input: { ...VALID_ORDER, email: 'c@example.com' } } });
    const created = logs.lines().filter((line) => line.msg === 'order created');
    expect(created.map((line) => [line.requestId, line.orderNumber])).toEqual([
      ['rest-create', '1001'],
      ['yoga-create', '1002'],
      ['fast-create', '1003'],
    ]);
  });

  it('reaches the error lines of reads, which run outside the scope: the router\'s and the fast path\'s masking', async () => {
    const logs = capture();
    const live = await liveServer({ logger: logs.logger });
    const query = JSON.stringify({ query: '{ order(orderNumber: "1001", payToken: "x") { status } }' });
    await live.gateway.database.destroy();
    const get = await fetch(`${live.server.url}/api/orders/1001?t=x`, { headers: { 'x-request-id': 'read-rest' } });
    expect(get.status).toBe(500);
    for (const id of ['read-yoga', 'read-fast']) {
      await fetch(`${live.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': id }, body: query });
    }
    const errors = logs.lines().filter((line) => line.level === 'error');
    expect(errors.map((line) => [line.msg, line.requestId])).toEqual([
      ['unexpected error on a REST path', 'read-rest'],
      ['graphql', 'read-yoga'],
      ['graphql', 'read-fast'],
    ]);
  });

  it('with LOG_REQUEST_SCOPE=off only the request line carries it', async () => {
    const logs = capture();
    const t = await testGateway({ logger: logs.logger, env: { LOG_REQUEST_SCOPE: 'off' } });
    await t.rest('POST', '/api/orders', VALID_ORDER, { 'x-request-id': 'unscoped' });
    expect(logs.lines().find((line) => line.msg === 'order created')!.requestId).toBeUndefined();
    expect(logs.requests()[0]!.requestId).toBe('unscoped');
  });
});

describe('a real process', () => {
  it('writes every line as JSON on stdout, request lines included, and all of them before it exits', async () => {
    const server = await startProcess({ LOG_LEVEL: 'debug', DATABASE_URL: ':memory:' });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await fetch(`${server.url}/api/sleeve-options`, { headers: { 'x-request-id': `proc-${i}` } })).headers.get('x-request-id')!);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => line.requestId)).toEqual(ids);
    // Written as bytes into the buffer (src/kernel/request-line-bytes.ts): the same fields, in the same order.
    for (const line of requests) {
      expect(Object.keys(line)).toEqual(['time', 'level', 'msg', 'requestId', 'method', 'route', 'status', 'durationMs', 'client']);
      expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/api/sleeve-options', status: 200 });
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(line.durationMs).toBeGreaterThan(0);
    }
    expect(lines.at(-1)!.msg).toBe('stopped');
  });

  /** A real process whose `streams` are closed under it (its log reader gone): it serves on and exits 0 on SIGTERM. */
  async function servesWith(streams: Array<'stdout' | 'stderr'>): Promise<string> {
    const server = await startProcess({ LOG_LEVEL: 'info', DATABASE_URL: ':memory:' });
    for (const stream of streams) server.child[stream]!.destroy();
    // Each request's line is written within 20 ms (the gathering): the first writes after the close fail (EPIPE).
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.child.exitCode).toBeNull();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    return server.output();
  }

  it('goes on serving when its stdout is closed (the log reader gone), says so once on stderr, and exits 0', async () => {
    const output = await servesWith(['stdout']);
    expect(output.split('\n').filter((line) => line.includes('stdout'))).toEqual([
      expect.stringMatching(/^sleeve-gateway: stdout failed \(EPIPE\): log lines are dropped from now on; the service goes on$/u),
    ]);
  });

  // stdout's failure is told on stderr, which fails too (EPIPE): neither may end the process.
  it('goes on serving when stdout and stderr are both closed (one pipe for both, its reader gone), and exits 0', () => servesWith(['stdout', 'stderr']));
});
