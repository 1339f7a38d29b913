/**
 * The fast JSON path answers exactly as yoga's own pipeline does. Each case goes through the production node:http
 * entry twice — the first time yoga answers it (which caches the document), the second time the fast path does
 * whenever it takes the request — and once through yoga's Fetch handler in memory, and the answers must match.
 * Which path answered is read from yoga itself: it logs "Parsing request to extract GraphQL parameters" (debug) for
 * every request it processes, and the fast path never goes near it.
 */
import { describe, expect, it } from 'vitest';
import { createGraphQLDoor } from '../../graphql-server/graphql-door.ts';
import { executionPluginCount, requestPluginCount } from '../../graphql-server/fast-path-parts.ts';
import { countOrderPayments } from '../../src/orders/order-repository.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createRateLimiter } from '../../src/kernel/rate-limiter.ts';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';
import { gatewayCountingYoga, gatewayOver, TRANSPORTS, type CountingGateway } from '../support/graphql-transports.ts';


interface Served extends CountingGateway {
  t: CountingGateway;
  url: string;
}

/** A gateway behind the production node:http entry, with a logger that counts what yoga does. */
async function served(env: Record<string, string> = {}): Promise<Served> {
  const t = await gatewayCountingYoga('node', env);
  return { ...t, t, url: `${t.server!.url}/graphql` };
}

interface Answered {
  status: number;
  type: string | null;
  retryAfter: string | null;
  body: any;
}

async function answered(response: Response): Promise<Answered> {
  return { status: response.status, type: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

/**
 * Sends `body` over the socket twice (`first`: yoga; `second`: the fast path when it takes it) and once through
 * yoga in memory (`full`); `fast` says whether the fast path answered the second.
 */
async function seenBefore(body: unknown, headers: Record<string, string> = {}, env: Record<string, string> = {}) {
  const s = await served(env);
  const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const runs = s.yogaRuns();
  const first = await answered(await fetch(s.url, { ...init, signal: AbortSignal.timeout(5_000) }));
  const yogaAnsweredFirst = s.yogaRuns() === runs + 1;
  const second = await answered(await fetch(s.url, { ...init, signal: AbortSignal.timeout(5_000) }));
  const fast = s.yogaRuns() === runs + 1;
  const full = await answered(await s.t.gateway.fetch(new Request('http://sleeve.test/graphql', init)));
  expect(yogaAnsweredFirst, 'yoga answers a document it has not seen').toBe(true);
  return { ...s, first, second, full, fast };
}

describe('the fast JSON path', () => {
  it.each([
    ['a validation error', { query: '{ sleeveOptions { nope } }' }, 400, 'yoga'],
    ['a syntax error', { query: '{ sleeveOptions { ' }, 400, 'yoga'],
    ['an unknown parameter', { query: '{ eventInfo }', extra: 1 }, 400, 'yoga'],
    ['variables that are not an object', { query: '{ eventInfo }', variables: [1] }, 400, 'yoga'],
    // A variable coercion error: errors and no data, so 400 under graphql-response+json (request-errors.ts), on both paths.
    ['a variable of the wrong type', { query: 'query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1', t: 5 } }, 400, 'fast'],
    ['an unknown operation name', { query: 'query A { eventInfo } query B { eventInfo }', operationName: 'C' }, 400, 'yoga'],
    ['two operations and no name', { query: 'query A { eventInfo } query B { eventInfo }' }, 400, 'yoga'],
    ['a missing query', { variables: {} }, 400, 'yoga'],
    ['a name that is not the operation\'s', { query: 'query A { eventInfo }', operationName: 'B' }, 400, 'yoga'],
    // The query-limit rules throw rather than report: errors and no data, so 400 under graphql-response+json, as yoga
    // now answers them too (request-errors.ts).
    ['more aliases than the limit', { query: `{ ${Array.from({ length: 25 }, (_, i) => `a${i}: eventInfo`).join(' ')} }` }, 400, 'yoga'],
    // Fields nest, fragments do not: 13 levels of fields through __type.
    ['a query deeper than the limit', { query: `{ __type(name: "Order") ${'{ fields { type '.repeat(6)}{ name }${' } }'.repeat(6)} }` }, 400, 'yoga'],
  ])('answers %s exactly as yoga does', async (_name, body, status, path) => {
    const { first, second: fast, full, fast: tookIt } = await seenBefore(body, { accept: 'application/graphql-response+json' });
    expect(fast).toEqual(full);
    expect(first).toEqual(full);
    expect(fast.status).toBe(status);
    expect(fast.body.errors.length).toBeGreaterThan(0);
    expect(tookIt ? 'fast' : 'yoga').toBe(path);
  });

  it('answers a successful query exactly as yoga does, for both JSON media types', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const { second: fast, full, fast: tookIt } = await seenBefore({ query: '{ sleeveOptions { sizes charLimit } }' }, { accept });
      expect(tookIt).toBe(true);
      expect(fast).toEqual(full);
      expect(fast.type).toBe(`${accept}; charset=utf-8`);
    }
  });

  it.each(TRANSPORTS)('runs a mutation once and pays once (%s)', async (transport) => {
    const t = await gatewayOver(transport);
    const created = await t.rest('POST', '/api/orders', VALID_ORDER);
    const pay = () =>
      t.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation { payOrder(orderNumber: "1001", input: { t: "${created.body.payToken}", method: VENDOR_CARD }) { ... on PayResult { alreadyPaid } } }`,
        }),
      });
    const response = await pay();
    expect((await response.json()).data.payOrder.alreadyPaid).toBe(false);
    expect(await countOrderPayments(t.gateway.database.db, 1001)).toBe(1);
    // Again (over node:http, now on the fast path): already paid, still one payment.
    expect((await (await pay()).json()).data.payOrder.alreadyPaid).toBe(true);
    expect(await countOrderPayments(t.gateway.database.db, 1001)).toBe(1);
  });
});

describe('the compiled path (a document seen before)', () => {
  it.each([
    ['a plain query', { query: '{ sleeveOptions { sizes charLimit } eventInfo }' }, {}, 200],
    ['a query with fragments', { query: 'query Q { ...F } fragment F on Query { eventInfo }', operationName: 'Q' }, {}, 200],
    ['a variable of the wrong type', { query: 'query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1', t: 5 } }, {}, 200],
    ['a staff field without the token', { query: '{ orders { totalCount } }' }, {}, 200],
    ['a staff field with the token', { query: '{ orders { totalCount } }' }, { authorization: 'Bearer test-admin-token' }, 200],
    // Sized by a variable: the cost is reckoned again with each request's values (operation-cost.ts).
    ['a variable first past the cost limit', { query: 'query($n: Int) { a: orders(first: $n) { edges { node { email name order { size font thread stitchText } } } } b: orders(first: $n) { edges { node { email name order { size font thread stitchText } } } } c: orders(first: $n) { edges { node { email name order { size font thread stitchText } } } } d: orders(first: $n) { edges { node { email name order { size font thread stitchText } } } } }', variables: { n: 200 } }, { authorization: 'Bearer test-admin-token' }, 200],
    ['a staff mutation that fails in the domain', { query: 'mutation { advanceOrder(orderNumber: "999", status: READY) { status } }' }, { authorization: 'Bearer test-admin-token' }, 200],
  ])('answers %s as yoga does', async (_name, body, headers, status) => {
    const { first, second, full, fast } = await seenBefore(body, { accept: 'application/json', ...headers });
    expect(fast).toBe(true);
    expect(second).toEqual(full);
    expect(first).toEqual(full);
    expect(second.status).toBe(status);
  });

  it('counts against the shared rate limit, and answers 429 with Retry-After as yoga does', async () => {
    const create = { query: 'mutation ($input: OrderInput!) { createOrder(input: $input) { __typename } }', variables: { input: VALID_ORDER } };
    const { t, second, fast } = await seenBefore(create, { accept: 'application/json' }, { RATE_LIMIT_WRITE: '1' });
    expect(fast).toBe(true);
    // yoga's own answer to the same over-limit request (the in-memory door's client was limited by `full`).
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(create) };
    const limited = await t.gateway.fetch(new Request('http://sleeve.test/graphql', init));
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe(limited.headers.get('retry-after'));
    expect(second.body).toEqual(await limited.json());
    expect(second.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('masks an unexpected error as yoga does, with yoga\'s log line for what it hid', async () => {
    const s = await served();
    const query = { query: 'query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1001', t: 'x' } };
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(query) };
    expect((await answered(await fetch(s.url, init))).body).toEqual({ data: { order: null } });
    await s.t.gateway.database.destroy();
    const [runs, errors] = [s.yogaRuns(), s.errorLines()];
    const fast = await answered(await fetch(s.url, init));
    expect(s.yogaRuns()).toBe(runs);
    const fastErrorLines = s.errorLines() - errors;
    const full = await answered(await s.t.gateway.fetch(new Request('http://sleeve.test/graphql', init)));
    expect(fast).toEqual(full);
    expect(fast.body.errors[0].message).toBe('Unexpected error.');
    expect(fastErrorLines).toBeGreaterThan(0);
    expect(s.errorLines() - errors - fastErrorLines).toBe(fastErrorLines);
  });

  it.each([
    ['*/*', 'fast'],
    ['application/*', 'fast'],
    ['application/json, application/graphql-response+json', 'fast'],
    ['application/json;q=0.5, application/graphql-response+json', 'fast'],
    ['text/html, */*;q=0.8', 'fast'],
    // Nothing acceptable (406): yoga's.
    ['text/html', 'yoga'],
    ['application/json; charset=iso-8859-1', 'yoga'],
  ])('negotiates the media type for Accept: %s as yoga does, status and headers alike', async (accept, path) => {
    const s = await served();
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query: '{ sleeveOptions { charLimit } }' }) };
    const whole = async (response: Response) => ({ status: response.status, headers: headersOf(response), body: await response.text() });
    const first = await whole(await fetch(s.url, init));
    const runs = s.yogaRuns();
    const second = await whole(await fetch(s.url, init));
    expect(s.yogaRuns() === runs ? 'fast' : 'yoga').toBe(path);
    const full = await whole(await s.t.gateway.fetch(new Request('http://sleeve.test/graphql', init)));
    expect(second).toEqual(first);
    expect({ status: second.status, body: second.body, type: second.headers['content-type'] }).toEqual({ status: full.status, body: full.body, type: full.headers['content-type'] });
  });

  // docs/edge.md#cors: both paths answer with the one CorsPolicy, CORS_ORIGINS unset (`*`) or a list (echoed, or none).
  it.each([
    ['unset', {}, 'http://shop.example', '*'],
    ['a list, a listed origin', { CORS_ORIGINS: 'http://shop.example' }, 'http://shop.example', 'http://shop.example'],
    ['a list, another origin', { CORS_ORIGINS: 'http://shop.example' }, 'http://evil.example', null],
  ])('answers a request from a web page (Origin) with the same CORS headers as yoga, on success and on error (CORS_ORIGINS %s)', async (_name, env, origin, allowed) => {
    const cases = [
      { query: '{ sleeveOptions { charLimit } }' },
      // A variable of the wrong type: an answer with errors, through yoga's result processor.
      { query: 'query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables: { n: '1', t: 2 } },
    ];
    for (const body of cases) {
      const s = await served(env);
      const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', origin }, body: JSON.stringify(body) };
      const first = await fetch(s.url, init);
      const runs = s.yogaRuns();
      const second = await fetch(s.url, init);
      expect(s.yogaRuns()).toBe(runs);
      expect(headersOf(second)).toEqual(headersOf(first));
      expect(await second.text()).toBe(await first.text());
      expect(second.headers.get('access-control-allow-origin')).toBe(allowed);
      expect(second.headers.get('access-control-allow-credentials')).toBeNull();
      // And yoga's Fetch handler, in memory: the same CORS headers.
      const full = await s.t.gateway.fetch(new Request('http://sleeve.test/graphql', init));
      const cors = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k.startsWith('access-control-') || k === 'vary'));
      expect(cors(headersOf(full))).toEqual(cors(headersOf(second)));
    }
  });
});

/** Response headers by lower-case name (yoga's in-memory Headers keep the case they were set in), less those node:http adds to every answer. */
function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!['date', 'connection', 'keep-alive', 'x-request-id'].includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return headers;
}

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
      corsOrigins: gateway.config.corsOrigins,
      now: () => gateway.clock.now(),
    });
    // Fails when a plugin that hooks execution, or the request around it, is added to the door: the compiled path
    // would skip it.
    expect(door.compiledPathOn).toBe(true);
    const plugins = (door.yoga as unknown as { plugins: unknown[] }).plugins;
    expect(executionPluginCount([...plugins, { onExecute: () => {} }])).toBe(executionPluginCount(plugins) + 1);
    expect(executionPluginCount([...plugins, { onContextBuilding: () => {} }])).toBe(executionPluginCount(plugins) + 1);
    expect(requestPluginCount([...plugins, { onResponse: () => {} }])).toBe(requestPluginCount(plugins) + 1);
    expect(requestPluginCount([...plugins, { onParams: () => {} }])).toBe(requestPluginCount(plugins) + 1);
  });
});

describe.each(TRANSPORTS)('over %s', (transport) => {
  describe('documents with several operations', () => {
    it('run the operation that is named, on both paths', async () => {
      const t = await gatewayOver(transport);
      const query = 'query Options { sleeveOptions { charLimit } } query Info { eventInfo }';
      for (const operationName of ['Options', 'Info', 'Options', 'Info']) {
        const response = await t.request('/graphql', {
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
      const t = await gatewayOver(transport);
      const aliases = Array.from({ length: 25 }, (_, i) => `a${i}: eventInfo`).join(' ');
      for (const [query, ok] of [[`{ ${aliases} }`, false], ['{ eventInfo }', true], [`{ ${aliases} }`, false], ['{ eventInfo }', true]] as const) {
        const response = await t.request('/graphql', {
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
});
