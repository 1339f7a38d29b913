/**
 * Document 3 common headers on every risk and merchant operation (docs/platform.md#credentials), checked in order: basic auth and
 * x-vendor-siteid (401), api-version (400), content-type of a body (400); and the platform error bodies.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, testGateway, TEST_API_KEY, type TestGateway } from '../support/gateway.ts';
import { createMerchant, platformHeaders, profileAccess } from './support.ts';

interface Operation {
  name: string;
  method: 'GET' | 'POST';
  path: (merchantId: string) => string;
  body?: unknown;
  /** A POST that reads no body (key replacement): no content type is asked of it. */
  bodyless?: true;
}

const OPERATIONS: Operation[] = [
  { name: 'merchant creation', method: 'POST', path: () => '/merchants', body: { defaultMerchantCategoryCode: '5411', merchantId: 'm-9', name: 'Nine' } },
  { name: '3DS enrollment', method: 'POST', path: (m) => `/merchants/${m}/3ds-recommendation`, body: { offerings: { psd2: true } } },
  { name: '3DS status', method: 'GET', path: (m) => `/merchants/${m}/3ds-recommendation/3ds_unknown` },
  { name: 'key replacement', method: 'POST', path: (m) => `/merchants/${m}/api-key`, bodyless: true },
  { name: 'item listing', method: 'POST', path: () => '/v2/accounts/item-listing/evt-1', body: profileAccess() },
  { name: 'profile access', method: 'POST', path: () => '/v2/accounts/profile-access/evt-1', body: profileAccess() },
];

async function send(t: TestGateway, op: Operation, merchantId: string, headers: Record<string, string>, body = op.body) {
  const response = await t.gateway.fetch(
    new Request(`http://sleeve.test${op.path(merchantId)}`, {
      method: op.method,
      headers,
      // Bytes, not a string: Fetch gives a string body `text/plain` of its own, and the header checks must see none.
      ...(op.method === 'POST' && !op.bodyless ? { body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)) } : {}),
    }),
  );
  return { status: response.status, body: (await response.json()) as { status: string; message: string; errors?: unknown[] } };
}

const without = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));

describe.each(OPERATIONS)('$name headers', (op) => {
  async function setup() {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const json: Record<string, string> = op.method === 'POST' && !op.bodyless ? { 'content-type': 'application/json' } : {};
    return { t, merchant, good: { ...platformHeaders(t), ...json } };
  }

  it('401 without basic auth, with a wrong key, or for an unknown site', async () => {
    const { t, merchant, good } = await setup();
    for (const authorization of [undefined, basicAuth(t.siteId, 'wrong-key'), basicAuth('site_nobody', TEST_API_KEY), 'Bearer test-api-key']) {
      const headers = authorization ? { ...good, authorization } : without(good, 'authorization');
      const res = await send(t, op, merchant.id, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: expect.stringMatching(/API key/u) });
      expect(JSON.stringify(res.body)).not.toContain(TEST_API_KEY);
    }
  });

  it('401 without x-vendor-siteid or when it names another site than the credentials', async () => {
    const { t, merchant, good } = await setup();
    expect((await send(t, op, merchant.id, without(good, 'x-vendor-siteid'))).status).toBe(401);
    const other = await send(t, op, merchant.id, { ...good, 'x-vendor-siteid': merchant.id });
    expect(other.status).toBe(401);
    expect(other.body.message).toMatch(/x-vendor-siteid/u);
  });

  it('400 without api-version or with an unsupported one, after the 401 checks', async () => {
    const { t, merchant, good } = await setup();
    for (const headers of [without(good, 'api-version'), { ...good, 'api-version': '10.2' }, { ...good, 'api-version': '' }]) {
      const res = await send(t, op, merchant.id, headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: expect.stringMatching(/api-version/u), errors: [{ field: 'api-version', message: expect.any(String) }] });
    }
    // The order of the checks: credentials come first.
    const both = await send(t, op, merchant.id, { ...without(good, 'api-version'), authorization: basicAuth(t.siteId, 'wrong') });
    expect(both.status).toBe(401);
  });

  if (op.method === 'POST' && !op.bodyless) {
    it('415 for a body sent as another type (docs/edge.md#no-cross-site-writes), 400 without a content type or not JSON', async () => {
      const { t, merchant, good } = await setup();
      const plain = await send(t, op, merchant.id, { ...good, 'content-type': 'text/plain' });
      expect(plain.status).toBe(415);
      expect(plain.body).toEqual({ status: 'error', message: expect.stringContaining('application/json') });
      expect((await send(t, op, merchant.id, without(good, 'content-type'))).status).toBe(400);
      expect((await send(t, op, merchant.id, { ...good, 'content-type': 'application/json; charset=utf-8' })).status).not.toBe(400);
      const broken = await send(t, op, merchant.id, good, '{"not json');
      // CONTRACT §3: a 400 lists its fields, the body itself when no field was read.
      const bodyError = { field: 'body', message: expect.any(String) };
      expect(broken).toEqual({ status: 400, body: { status: 'error', message: expect.stringMatching(/JSON/u), errors: [bodyError] } });
      for (const notAnObject of ['[1, 2]', '"text"', ' ']) {
        const refused = await send(t, op, merchant.id, good, notAnObject);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([bodyError]);
      }
    });
  }
});

describe('unexpected failures', () => {
  it('answer 500 with the platform error body and no internal detail', async () => {
    const t = await testGateway();
    await t.gateway.database.db.destroy(); // every query now fails inside the driver
    const res = await t.rest('POST', '/v2/accounts/profile-access/evt-1', profileAccess(), platformHeaders(t));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 'error', message: 'Something went wrong on our side. Please try again.' });
  });
});

describe('merchant credentials', () => {
  it("a created merchant's id and apiKey are a site that works for its own calls", async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const own = platformHeaders(t, merchant);
    const decision = await t.rest('POST', '/v2/accounts/profile-access/evt-m', profileAccess(), own);
    expect(decision.status).toBe(200);
    const enrollment = await t.rest('POST', `/merchants/${merchant.id}/3ds-recommendation`, { offerings: { psd2: true } }, own);
    expect(enrollment.status).toBe(200);
    const child = await t.rest('POST', '/merchants', { defaultMerchantCategoryCode: '5999', merchantId: 'sub', name: 'Sub Shop' }, own);
    expect(child.status).toBe(200);
    expect((await t.rest('POST', '/merchants', {}, { ...own, authorization: basicAuth(merchant.id, 'guess') })).status).toBe(401);
  });

  it('404 with the platform error body for a merchant of another site', async () => {
    const t = await testGateway();
    const first = await createMerchant(t);
    const second = await createMerchant(t, { name: 'Second Shop' });
    const res = await t.rest('POST', `/merchants/${second.id}/3ds-recommendation`, { offerings: { psd2: true } }, platformHeaders(t, first));
    expect(res).toMatchObject({ status: 404, body: { status: 'error', message: expect.stringMatching(/merchant/u) } });
    expect(res.body.errors).toBeUndefined();
  });
});
