/**
 * The REST door at the edge (docs/edge.md): CORS per CORS_ORIGINS with preflights answered 204, no cross-site writes
 * (a browser's "simple request" content types are 415 in each path's error shape), and the headers of every page.
 */
import { describe, expect, it } from 'vitest';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';

const SHOP = 'http://shop.example';
const OTHER = 'http://evil.example';

describe('CORS on REST paths (docs/edge.md#cors)', () => {
  it('with CORS_ORIGINS unset, any origin may call, without credentials', async () => {
    const { rest } = await testGateway();
    const options = await rest('GET', '/api/sleeve-options', undefined, { origin: SHOP });
    expect(options.status).toBe(200);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-credentials')).toBeNull();
    const created = await rest('POST', '/api/orders', VALID_ORDER, { origin: SHOP });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    // An error answer carries it too, so a page can read why.
    const refused = await rest('POST', '/api/orders', VALID_ORDER, { origin: SHOP });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // So does a path that does not exist: a page from another origin can read its 404.
    const missing = await rest('GET', '/api/nowhere', undefined, { origin: SHOP });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight with 204, the methods of the path and the headers a client may send', async () => {
    const { rest } = await testGateway();
    const preflight = await rest('OPTIONS', '/api/orders/1001/pay', undefined, {
      origin: SHOP,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.body).toBe('');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    // A path that does not exist is still a 404.
    expect((await rest('OPTIONS', '/nowhere', undefined, { origin: SHOP })).status).toBe(404);
  });

  it('with CORS_ORIGINS set, only those origins, each echoed back with Vary: Origin', async () => {
    const { rest } = await testGateway({ env: { CORS_ORIGINS: `${SHOP}, http://kiosk.example:8080` } });
    const allowed = await rest('GET', '/api/sleeve-options', undefined, { origin: SHOP });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(allowed.headers.get('vary')).toBe('Origin');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await rest('OPTIONS', '/api/orders', undefined, { origin: 'http://kiosk.example:8080', 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://kiosk.example:8080');
    const refused = await rest('OPTIONS', '/api/orders', undefined, { origin: OTHER, 'access-control-request-method': 'POST' });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect((await rest('GET', '/api/sleeve-options', undefined, { origin: OTHER })).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('no cross-site writes on REST (docs/edge.md#no-cross-site-writes)', () => {
  const body = JSON.stringify(VALID_ORDER);

  it.each(['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuses a JSON body sent as %s with 415 in document 1 shape, and creates nothing',
    async (type) => {
      const { rest } = await testGateway();
      const refused = await rest('POST', '/api/orders', body, { 'content-type': type });
      expect(refused.status).toBe(415);
      expect(refused.body).toEqual({ ok: false, code: 'bad_request', error: expect.stringContaining('application/json'), retryable: false });
      expect((await rest('POST', '/api/orders', VALID_ORDER)).status).toBe(201);
    },
  );

  it('still reads a body with no content type as JSON, for legacy clients', async () => {
    const { gateway } = await testGateway();
    const request = new Request('http://sleeve.test/api/orders', { method: 'POST', body: new TextEncoder().encode(body) });
    expect(request.headers.get('content-type')).toBeNull();
    expect((await gateway.fetch(request)).status).toBe(201);
  });

  it('refuses a POST with no content type or a simple one that a browser sent from another origin, 415 in each shape', async () => {
    const { gateway, siteAuthorization } = await testGateway();
    const post = (path: string, headers: Record<string, string>, type?: string) =>
      gateway.fetch(new Request(`http://sleeve.test${path}`, { method: 'POST', headers: { authorization: siteAuthorization, ...headers, ...(type ? { 'content-type': type } : {}) }, body: new TextEncoder().encode(body) }));
    // Another port of the same host, or a sibling subdomain (same-site), or another site: no preflight asked.
    const fromElsewhere: Array<Record<string, string>> = [{ 'sec-fetch-site': 'same-site', origin: 'http://sleeve.test:8080' }, { 'sec-fetch-site': 'cross-site', origin: OTHER }, { origin: 'http://sleeve.test:8080' }, { origin: 'null' }];
    for (const headers of fromElsewhere) {
      for (const type of [undefined, 'text/plain']) {
        const order = await post('/api/orders', headers, type);
        expect(order.status, JSON.stringify({ headers, type })).toBe(415);
        expect(await order.json()).toEqual({ ok: false, code: 'bad_request', error: expect.stringContaining('application/json'), retryable: false });
        const endpoint = await post('/v1/webhooks/endpoints', headers, type);
        expect(endpoint.status).toBe(415);
        const payment = await post('/api/payments', headers, type);
        expect(payment.status).toBe(415);
        expect(await payment.json()).toEqual({ status: 'error', message: expect.stringContaining('application/json') });
      }
    }
    // The same origin (Sec-Fetch-Site, or an Origin naming the host), a typed address bar (none), and a preflighted
    // JSON POST from another origin all write.
    const ours: Array<Record<string, string>> = [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { origin: 'http://sleeve.test' }];
    for (const [i, headers] of ours.entries()) {
      const created = await gateway.fetch(new Request('http://sleeve.test/api/orders', { method: 'POST', headers, body: new TextEncoder().encode(JSON.stringify({ ...VALID_ORDER, email: `same-${i}@example.com` })) }));
      expect(created.status, JSON.stringify(headers)).toBe(201);
    }
    const preflighted = await post('/api/orders', { 'sec-fetch-site': 'cross-site', origin: OTHER }, 'application/json');
    expect(preflighted.status).toBe(201);
  });

  it('reads a /api/payments body with no content type as JSON too: document 3 lists no content-type header there', async () => {
    const { gateway, siteAuthorization } = await testGateway();
    const payment = { orderId: 'o-1', amount: 1999, currency: 'USD', paymentMethod: { type: 'card', card: { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace' } } };
    const request = new Request('http://sleeve.test/api/payments', { method: 'POST', headers: { authorization: siteAuthorization }, body: new TextEncoder().encode(JSON.stringify(payment)) });
    expect(request.headers.get('content-type')).toBeNull();
    const response = await gateway.fetch(request);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ orderId: 'o-1', status: 'succeeded' });
  });

  it('refuses text/plain in the platform and tokenization shapes too', async () => {
    const { rest, siteAuthorization } = await testGateway();
    const payment = await rest('POST', '/api/payments', '{}', { 'content-type': 'text/plain', authorization: siteAuthorization });
    expect(payment.status).toBe(415);
    expect(payment.body).toEqual({ status: 'error', message: expect.stringContaining('application/json') });
    const token = await rest('POST', '/v1/tokenization/tokenize', '{}', { 'content-type': 'text/plain', authorization: siteAuthorization });
    expect(token.status).toBe(415);
    expect(token.body).toEqual({ message: expect.stringContaining('application/json') });
  });
});

describe('page headers (docs/edge.md#page-headers)', () => {
  async function page(path: string) {
    const t = await testGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const response = await t.rest('GET', path.replace(':n', orderNumber).replace(':t', encodeURIComponent(payToken)));
    expect(response.status).toBe(200);
    return response;
  }

  it.each(['/', '/staff', '/display', '/pay/:n?t=:t', '/portal'])('%s sends a CSP without inline script or another origin, and nosniff', async (path) => {
    const response = await page(path);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = response.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/u)).map(([name, ...values]) => [name, values]));
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:\/\/(?!sleeve\.test)/u);
    // Nothing inline is left for the policy to block: every script and style is a file of this server.
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/u);
    const framed = path === '/staff' || path === '/portal' || path.startsWith('/pay');
    expect(directives['frame-ancestors']).toEqual(framed ? ["'none'"] : undefined);
    expect(response.headers.get('x-frame-options')).toBe(framed ? 'DENY' : null);
    expect(response.headers.get('referrer-policy')).toBe(path.startsWith('/pay') ? 'no-referrer' : 'same-origin');
  });

  it('serves a favicon', async () => {
    const { rest } = await testGateway();
    const icon = await rest('GET', '/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(icon.body).toContain('<svg');
  });
});
