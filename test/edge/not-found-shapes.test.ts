/**
 * docs/edge.md#bounds: 404 and 405 answer in each path family's own error shape — document 1's Error body on
 * /api/…, document 3's `{ status: "error", message }` on platform paths, `{ message }` on tokenization paths
 * (issue 15: the platform and tokenization families answered document 1's shape).
 */
import { describe, expect, it } from 'vitest';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

describe.each(TRANSPORTS)('404 and 405 per path family, over %s', (transport) => {
  it('document 1 paths keep the Error body', async () => {
    const t = await gatewayOver(transport);
    const missing = await t.rest('GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    const wrong = await t.rest('DELETE', '/api/orders');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.body).toMatchObject({ ok: false, retryable: false });
  });

  it('platform paths answer { status: "error", message }', async () => {
    const t = await gatewayOver(transport);
    // In any case: a platform client's typo in a path's case (/Merchants) is still read in the shape it expects.
    for (const path of ['/api/payments/pay_1/refunds', '/v2/accounts/unknown/ev-1', '/merchants/m-1/unknown', '/v1/webhooks', '/v1/webhooks/endpoints/ep_1/unknown', '/Merchants', '/API/Payments', '/V2/accounts/x']) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: expect.stringContaining(path) });
    }
    for (const [method, path, allow] of [
      ['GET', '/api/payments', 'POST'],
      ['PUT', '/merchants', 'POST'],
      ['GET', '/v2/accounts/profile-access/ev-1', 'POST'],
      ['GET', '/v2/claims/c-1/evidence/data-points', 'POST'],
      ['PUT', '/v1/webhooks/endpoints/ep_1', 'GET, PATCH, DELETE'],
    ] as const) {
      const res = await t.rest(method, path);
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body).toEqual({ status: 'error', message: expect.stringContaining(allow) });
    }
  });

  it('tokenization paths answer { message }', async () => {
    const t = await gatewayOver(transport);
    const missing = await t.rest('POST', '/v1/tokenization/unknown', {});
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: expect.stringContaining('/v1/tokenization/unknown') });
    for (const path of ['/v1/tokenization/tokenize', '/v1/account-updater/card/update']) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({ message: expect.stringContaining('POST') });
    }
  });
});
