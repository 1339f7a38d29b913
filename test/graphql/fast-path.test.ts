/**
 * The fast JSON path answers exactly as yoga's own pipeline does. Each case is sent once over a socket as a
 * plain JSON POST (the fast path) and once through yoga's Fetch handler in memory, and the two must match.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGraphQLDoor } from '../../graphql-server/graphql-handler.ts';
import { executionPluginCount } from '../../graphql-server/compiled-operations.ts';
import { countOrderPayments } from '../../src/orders/order-repository.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createRateLimiter } from '../../src/kernel/rate-limiter.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(1_000);
  server = undefined;
});

async function both(body: unknown, headers: Record<string, string> = { accept: 'application/graphql-response+json' }) {
  const t = await testGateway();
  server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
  const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const fast = await fetch(`${server.url}/graphql`, { ...init, signal: AbortSignal.timeout(5_000) });
  const full = await t.gateway.fetch(new Request('http://sleeve.test/graphql', init));
  return {
    t,
    fast: { status: fast.status, type: fast.headers.get('content-type'), body: await fast.json() },
    full: { status: full.status, type: full.headers.get('content-type'), body: await full.json() },
  };
}

describe('the fast JSON path', () => {
  it.each([
    ['a validation error', { query: '{ sleeveOptions { nope } }' }, 400],
    ['a syntax error', { query: '{ sleeveOptions { ' }, 400],
    ['an unknown parameter', { query: '{ eventInfo }', extra: 1 }, 400],
    ['variables that are not an object', { query: '{ eventInfo }', variables: [1] }, 400],
    // yoga answers a variable coercion error with 200 and no data; the fast path must do the same.
    ['a variable of the wrong type', { query: 'query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1', t: 5 } }, 200],
    ['an unknown operation name', { query: 'query A { eventInfo } query B { eventInfo }', operationName: 'C' }, 400],
    ['two operations and no name', { query: 'query A { eventInfo } query B { eventInfo }' }, 400],
    ['a missing query', { variables: {} }, 400],
    // The query-limit rules throw rather than report; yoga answers those with 200 and the error, and so must we.
    ['more aliases than the limit', { query: `{ ${Array.from({ length: 25 }, (_, i) => `a${i}: eventInfo`).join(' ')} }` }, 200],
    ['a query deeper than the limit', { query: `{ sleeveOptions ${'{ ... on SleeveOptions '.repeat(14)}{ charLimit }${' }'.repeat(14)} }` }, 200],
  ])('answers %s exactly as yoga does', async (_name, body, status) => {
    const { fast, full } = await both(body);
    expect(fast).toEqual(full);
    expect(fast.status).toBe(status);
    expect(fast.body.errors.length).toBeGreaterThan(0);
  });

  it('answers a successful query exactly as yoga does, for both JSON media types', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const { fast, full } = await both({ query: '{ sleeveOptions { sizes charLimit } }' }, { accept });
      expect(fast).toEqual(full);
      expect(fast.type).toBe(`${accept}; charset=utf-8`);
    }
  });

  it('runs a mutation once and pays once', async () => {
    const t = await testGateway();
    server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    const created = await t.rest('POST', '/api/orders', VALID_ORDER);
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { payOrder(orderNumber: "1001", input: { t: "${created.body.payToken}", method: VENDOR_CARD }) { ... on PayResult { alreadyPaid } } }`,
      }),
    });
    expect((await response.json()).data.payOrder.alreadyPaid).toBe(false);
    expect(await countOrderPayments(t.gateway.database.db, 1001)).toBe(1);
  });
});

describe('the compiled path (a document seen before)', () => {
  /** Sends the same request over the socket twice (the second runs the compiled plan) and once through yoga. */
  async function seenBefore(body: unknown, headers: Record<string, string> = {}, env: Record<string, string> = {}) {
    const t = await testGateway({ env });
    server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) };
    const answer = async (response: Response) => ({ status: response.status, type: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after'), body: await response.json() });
    const first = await answer(await fetch(`${server.url}/graphql`, init));
    const second = await answer(await fetch(`${server.url}/graphql`, init));
    const full = await answer(await t.gateway.fetch(new Request('http://sleeve.test/graphql', init)));
    return { t, first, second, full };
  }

  it.each([
    ['a plain query', { query: '{ sleeveOptions { sizes charLimit } eventInfo }' }, {}, 200],
    ['a query with fragments', { query: 'query Q { ...F } fragment F on Query { eventInfo }', operationName: 'Q' }, {}, 200],
    ['a variable of the wrong type', { query: 'query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1', t: 5 } }, {}, 200],
    ['a staff field without the token', { query: '{ orders { totalCount } }' }, {}, 200],
    ['a staff mutation that fails in the domain', { query: 'mutation { advanceOrder(orderNumber: "999", status: READY) { status } }' }, { authorization: 'Bearer test-admin-token' }, 200],
  ])('answers %s as yoga does', async (_name, body, headers, status) => {
    const { first, second, full } = await seenBefore(body, headers);
    expect(second).toEqual(full);
    expect(first).toEqual(full);
    expect(second.status).toBe(status);
  });

  it('counts against the shared rate limit, and answers 429 with Retry-After as yoga does', async () => {
    const { t, second } = await seenBefore({ query: '{ sleeveOptions { charLimit } }' }, {}, { RATE_LIMIT_READ: '1' });
    // yoga's own answer to the same over-limit request (the in-memory door's client was limited by `full`).
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: '{ sleeveOptions { charLimit } }' }) };
    const limited = await t.gateway.fetch(new Request('http://sleeve.test/graphql', init));
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe(limited.headers.get('retry-after'));
    expect(second.body).toEqual(await limited.json());
    expect(second.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });
});

describe('the compiled path and the plugins it stands in for', () => {
  it('is on for the door as built, and a plugin hooking execution is counted (the door then leaves it off)', async () => {
    const { gateway } = await testGateway();
    const door = createGraphQLDoor({
      schema: gateway.schema,
      services: gateway.services,
      limiter: createRateLimiter(gateway.config.rateLimits, gateway.clock),
      logger: createLogger('silent'),
      adminToken: gateway.config.adminToken,
      publicUrl: gateway.config.publicUrl,
      maxBodyBytes: gateway.config.maxBodyBytes,
      now: () => gateway.clock.now(),
    });
    // Fails when a plugin that hooks execution is added to the door: the compiled path would skip it.
    expect(door.compiledPathOn).toBe(true);
    const plugins = (door.yoga as unknown as { plugins: unknown[] }).plugins;
    expect(executionPluginCount([...plugins, { onExecute: () => {} }])).toBe(executionPluginCount(plugins) + 1);
    expect(executionPluginCount([...plugins, { onContextBuilding: () => {} }])).toBe(executionPluginCount(plugins) + 1);
  });
});

describe('documents with several operations', () => {
  it('run the operation that is named, on both paths', async () => {
    const t = await testGateway();
    server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    const query = 'query Options { sleeveOptions { charLimit } } query Info { eventInfo }';
    for (const operationName of ['Options', 'Info', 'Options', 'Info']) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, operationName }),
      });
      const { data } = await response.json();
      expect(Object.keys(data)).toEqual([operationName === 'Options' ? 'sleeveOptions' : 'eventInfo']);
    }
  });
});

describe('the document cache on the fast path', () => {
  it('keeps refusing a document the query limits refused, and keeps serving a valid one', async () => {
    const t = await testGateway();
    server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    const aliases = Array.from({ length: 25 }, (_, i) => `a${i}: eventInfo`).join(' ');
    for (const [query, ok] of [[`{ ${aliases} }`, false], ['{ eventInfo }', true], [`{ ${aliases} }`, false], ['{ eventInfo }', true]] as const) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const body = await response.json();
      expect(Boolean(body.data?.eventInfo), query.slice(0, 20)).toBe(ok);
      expect(Boolean(body.errors), query.slice(0, 20)).toBe(!ok);
      if (!ok) expect(body.errors[0].message).toContain('Aliases limit of 20 exceeded');
    }
  });
});
