/**
 * docs/edge.md#bounds: a JSON body nested deeper than 64 levels is a 400 in that path's own error shape, never a
 * 500 (issue 15: 5,000 levels answered 500 `internal`, retryable, on /api/payments, tokenize and profile access).
 */
import { describe, expect, it } from 'vitest';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** An object whose field `inner` is nested `levels` deep, so the body is one object as every path expects. */
const deepBody = (levels: number) => `{"orderId":"A-1","inner":${deep(levels)}}`;

const platformHeaders = (t: { siteId: string; siteAuthorization: string }) => ({
  authorization: t.siteAuthorization,
  'x-vendor-siteid': t.siteId,
  'api-version': '10.3',
  'content-type': 'application/json',
});

describe.each(TRANSPORTS)('a body nested 5,000 deep, over %s', (transport) => {
  it('is a 400 in document 1 Error shape on /api/orders and /api/orders/{n}/pay', async () => {
    const t = await gatewayOver(transport);
    for (const path of ['/api/orders', '/api/orders/1001/pay', '/api/orders/1001/card-token']) {
      const res = await t.rest('POST', path, deepBody(5_000));
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ ok: false, code: 'bad_request', retryable: false, error: expect.stringContaining('64') });
    }
  });

  it('is a 400 { status: "error", message, errors } on /api/payments, profile access and evidence data points', async () => {
    const t = await gatewayOver(transport);
    const headers = platformHeaders(t);
    for (const path of ['/api/payments', '/v2/accounts/profile-access/ev-1', '/v2/accounts/item-listing/ev-2', '/merchants', '/v2/claims/c-1/evidence/data-points']) {
      const res = await t.rest('POST', path, deepBody(5_000), headers);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: expect.stringContaining('64') });
      expect(res.body.errors).toBeInstanceOf(Array);
    }
    // A payment valid in every documented field, with a deep extra one: before, made and stored (201).
    const card = { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' };
    const payment = JSON.stringify({ orderId: 'A-1', amount: 1999, currency: 'USD', paymentMethod: { type: 'card', card } });
    const res = await t.rest('POST', '/api/payments', `${payment.slice(0, -1)},"metadata":${deep(5_000)}}`, { authorization: t.siteAuthorization });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: expect.stringContaining('64'), errors: [{ field: 'body', message: expect.stringContaining('64') }] });
  });

  it('is a 400 { message } on the tokenization paths', async () => {
    const t = await gatewayOver(transport);
    for (const path of ['/v1/tokenization/tokenize', '/v1/tokenization/detokenize', '/v1/tokenization/upgrade', '/v1/account-updater/card/update']) {
      const res = await t.rest('POST', path, deepBody(5_000), { authorization: t.siteAuthorization });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expect(Object.keys(res.body)).toEqual(['message']);
      expect(res.body.message).toContain('64');
    }
  });

  it('is a 400 GraphQL error for /graphql variables, and 64 levels still pass the limit', async () => {
    const t = await gatewayOver(transport);
    const query = '{ sleeveOptions { charLimit } }';
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const response = await t.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: `{"query":${JSON.stringify(query)},"variables":{"extra":${deep(5_000)}}}`,
      });
      const body = (await response.json()) as { errors?: Array<{ message: string }> };
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body.errors?.[0]?.message).toContain('64');
    }
    // At the limit (the body object itself is level 1): answered as usual.
    const ok = await t.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: `{"query":${JSON.stringify(query)},"variables":{"extra":${deep(62)}}}`,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: { sleeveOptions: { charLimit: 20 } } });
  });

  it('lets a body of exactly 64 levels through to the usual checks', async () => {
    const t = await gatewayOver(transport);
    const res = await t.rest('POST', '/api/orders', deepBody(63));
    expect(res.status).toBe(400);
    expect(res.body.error).not.toContain('64');
  });
});
