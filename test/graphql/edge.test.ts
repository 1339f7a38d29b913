/**
 * /graphql at the edge (docs/edge.md): CORS per CORS_ORIGINS on yoga's path and on the fast JSON path alike (the
 * node transport sends each request twice: yoga answers the first, the fast path the second), preflights, streams,
 * and no cross-site writes: a browser's "simple request" is refused before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { countOrderPayments } from '../../src/orders/order-repository.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { VALID_ORDER } from '../support/gateway.ts';

const SHOP = 'http://shop.example';
const OTHER = 'http://evil.example';
const CREATE = `mutation { createOrder(input: { email: "ada@example.com", name: "Ada Lovelace", size: "13-inch", font: "Block", thread: "Gold", stitchText: "ADA" }) { ... on Order { orderNumber } } }`;

describe.each(TRANSPORTS)('over %s', (transport) => {
  describe('no cross-site writes (docs/edge.md#no-cross-site-writes)', () => {
    const forms: Array<[string, () => { body: BodyInit; type?: string }]> = [
      ['form-urlencoded', () => ({ body: new URLSearchParams({ query: CREATE }), type: 'application/x-www-form-urlencoded' })],
      ['text/plain', () => ({ body: JSON.stringify({ query: CREATE }), type: 'text/plain;charset=UTF-8' })],
      ['multipart', () => {
        const form = new FormData();
        form.set('query', CREATE);
        return { body: form };
      }],
      ['multipart after the GraphQL multipart request spec', () => {
        const form = new FormData();
        form.set('operations', JSON.stringify({ query: CREATE }));
        form.set('map', '{}');
        return { body: form };
      }],
    ];
    it.each(forms)('refuses a mutation sent as %s with 415, and runs nothing', async (_name, make) => {
      const t = await gatewayOver(transport);
      const { body, type } = make();
      const response = await t.request('/graphql', { method: 'POST', headers: { origin: OTHER, ...(type ? { 'content-type': type } : {}) }, body });
      expect(response.status).toBe(415);
      const answer = await response.json();
      expect(answer.errors[0].message).toContain('application/json');
      expect(answer.data).toBeUndefined();
      const lookup = await t.rest('GET', '/api/orders/1001?t=x');
      expect(lookup.status).toBe(404);
      // The same mutation as JSON runs.
      expect((await t.gql(CREATE)).data.createOrder.orderNumber).toBe('1001');
    });
  });

  describe('CORS (docs/edge.md#cors)', () => {
    const query = { query: '{ sleeveOptions { charLimit } }' };
    const post = (origin: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin },
      body: JSON.stringify(query),
    });

    it('with CORS_ORIGINS unset: `*` without credentials, on yoga\'s path and the fast path, success and error', async () => {
      const t = await gatewayOver(transport);
      for (const body of [query, { query: 'query($n: ID!) { order(orderNumber: $n, payToken: 1) { status } }', variables: { n: 1 } }]) {
        for (let i = 0; i < 2; i++) {
          const response = await t.request('/graphql', { ...post(SHOP), body: JSON.stringify(body) });
          expect(response.headers.get('access-control-allow-origin')).toBe('*');
          expect(response.headers.get('access-control-allow-credentials')).toBeNull();
          expect(response.headers.get('access-control-expose-headers')).toBe('retry-after, x-request-id');
          await response.text();
        }
      }
    });

    it('with CORS_ORIGINS set: the listed origin echoed with Vary: Origin, any other none', async () => {
      const t = await gatewayOver(transport, { env: { CORS_ORIGINS: SHOP } });
      for (let i = 0; i < 2; i++) {
        const allowed = await t.request('/graphql', post(SHOP));
        expect(allowed.status).toBe(200);
        expect(allowed.headers.get('access-control-allow-origin')).toBe(SHOP);
        expect(allowed.headers.get('vary')).toBe('Origin');
        expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
        await allowed.text();
        const other = await t.request('/graphql', post(OTHER));
        expect(other.headers.get('access-control-allow-origin')).toBeNull();
        await other.text();
      }
    });

    it.each([[undefined], [SHOP]])('answers a preflight with 204, methods and headers (CORS_ORIGINS=%s)', async (list) => {
      const t = await gatewayOver(transport, list ? { env: { CORS_ORIGINS: list } } : {});
      const ask = (origin: string) =>
        t.request('/graphql', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } });
      const preflight = await ask(SHOP);
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(list ? SHOP : '*');
      // PUT and DELETE, and the stream token's header: graphql-sse's single connection mode from a page.
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('x-graphql-event-stream-token');
      // What Apollo Client sends with client awareness or a forced preflight, and a client's own request id.
      for (const header of ['apollographql-client-name', 'apollographql-client-version', 'apollo-require-preflight', 'x-request-id']) {
        expect(preflight.headers.get('access-control-allow-headers')?.split(', ')).toContain(header);
      }
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      // Any other well-formed name asked for is allowed too (no credential is ever used); a malformed one is not echoed.
      const askFor = (requested: string) =>
        t.request('/graphql', { method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': requested } });
      const traced = (await askFor('x-apollo-operation-name,sentry-trace,baggage')).headers;
      expect(traced.get('access-control-allow-headers')?.split(', ')).toEqual(expect.arrayContaining(['x-apollo-operation-name', 'sentry-trace', 'baggage', 'authorization']));
      expect(traced.get('vary')).toContain('Access-Control-Request-Headers');
      expect((await askFor('x-ok, bad header')).headers.get('access-control-allow-headers')).not.toContain('x-ok');
      const other = await ask(OTHER);
      expect(other.headers.get('access-control-allow-origin')).toBe(list ? null : '*');
    });

    it("carries the header on the door's own refusals: a body over MAX_BODY_BYTES, a stream past its address's bound", async () => {
      // A frontend team's review: these two came with no CORS header, so a page read "Failed to fetch", not the code.
      const t = await gatewayOver(transport, { env: { CORS_ORIGINS: SHOP, MAX_BODY_BYTES: '2000', MAX_CONNECTIONS_PER_ADDRESS: '1' } });
      const large = await t.request('/graphql', { ...post(SHOP), body: JSON.stringify({ query: `{ sleeveOptions { charLimit } } # ${'x'.repeat(3_000)}` }) });
      expect(large.status).toBe(413);
      expect(large.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(large.headers.get('access-control-expose-headers')).toBe('retry-after, x-request-id');
      await large.text();
      const controller = new AbortController();
      const stream = () =>
        t.request('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: SHOP },
          body: JSON.stringify({ query: 'subscription { sleeveOptionsChanged { charLimit } }' }),
          signal: controller.signal,
        });
      const first = await stream();
      expect(first.status).toBe(200);
      const second = await stream();
      if (second.status === 429) {
        expect(second.headers.get('access-control-allow-origin')).toBe(SHOP);
        expect(second.headers.get('retry-after')).not.toBeNull();
        expect(await second.json()).toMatchObject({ errors: [{ extensions: { code: 'TOO_MANY_OPERATIONS' } }] });
      } else expect(transport, 'only a socket has an address whose streams are bounded').not.toBe('node');
      controller.abort();
    });

    it('carries the header on an SSE stream', async () => {
      const t = await gatewayOver(transport, { env: { CORS_ORIGINS: SHOP } });
      const controller = new AbortController();
      const response = await t.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: SHOP },
        body: JSON.stringify({ query: 'subscription { sleeveOptionsChanged { charLimit } }' }),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/charLimit|:/u);
      controller.abort();
    });
  });
});

describe('GraphiQL (docs/edge.md#page-headers)', () => {
  it('sends a CSP that allows only its own inline script, by hash, and nosniff', async () => {
    const t = await gatewayOver('fetch');
    const response = await t.request('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/u);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/u);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html).toContain('<script>');
    // Never framed: it runs whatever is typed into it (or prefilled in its address), so no other site may overlay it
    // and have a visitor click Run (security review).
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('keeps paying once over a plain JSON mutation (no refusal of application/json)', async () => {
    const t = await gatewayOver('node');
    const created = await t.rest('POST', '/api/orders', VALID_ORDER);
    const pay = await t.gql(`mutation { payOrder(orderNumber: "1001", input: { t: "${created.body.payToken}", method: VENDOR_CARD }) { ... on PayResult { alreadyPaid } } }`);
    expect(pay.data).toEqual({ payOrder: { alreadyPaid: false } });
    expect(await countOrderPayments(t.gateway.database.db, 1001)).toBe(1);
  });
});
