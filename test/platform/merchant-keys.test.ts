/**
 * POST /merchants/{id}/api-key (docs/platform.md#credentials): a lost or leaked merchant key is replaced, never
 * recovered. The new key works and the old one stops at once; the owner or the merchant itself may ask, nobody else
 * learns the merchant exists; and a client whose creation answer was lost finds the merchant's id in its retry's 400.
 */
import { describe, expect, it } from 'vitest';
import { testGateway } from '../support/gateway.ts';
import { call, createMerchant, platformHeaders } from './support.ts';

const enrollAs = (t: Awaited<ReturnType<typeof testGateway>>, merchant: { id: string; apiKey: string }) =>
  t.rest('POST', `/merchants/${merchant.id}/3ds-recommendation`, { offerings: { psd2: true } }, { ...platformHeaders(t, merchant), 'content-type': 'application/json' });

describe('replacing a merchant key', () => {
  it('answers a new key, shown once; the old key stops working at once and the new one works', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const replaced = await call(t, 'POST', `/merchants/${merchant.id}/api-key`);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toEqual({ id: merchant.id, apiKey: expect.any(String) });
    expect(replaced.body.apiKey).not.toBe(merchant.apiKey);
    expect((await enrollAs(t, merchant)).status).toBe(401);
    expect((await enrollAs(t, { id: merchant.id, apiKey: replaced.body.apiKey })).status).toBe(200);
    const stored = await t.gateway.database.db.selectFrom('sites').select('api_key_hash').where('site_id', '=', merchant.id).executeTakeFirstOrThrow();
    expect(stored.api_key_hash).not.toContain(replaced.body.apiKey);
  });

  it('may be asked by the merchant\'s own site; another site gets 404 and the key stays', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const stranger = await createMerchant(t, { name: 'Other Shop', merchantId: 'm-2' });
    const refused = await t.rest('POST', `/merchants/${merchant.id}/api-key`, undefined, platformHeaders(t, stranger));
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ status: 'error', message: expect.any(String) });
    expect((await enrollAs(t, merchant)).status).toBe(200);

    const own = await t.rest('POST', `/merchants/${merchant.id}/api-key`, undefined, platformHeaders(t, merchant));
    expect(own.status).toBe(200);
    expect((await enrollAs(t, merchant)).status).toBe(401);
    expect((await enrollAs(t, { id: merchant.id, apiKey: own.body.apiKey })).status).toBe(200);
  });

  it('is not an operation on the bootstrap site, whose key is the configuration\'s', async () => {
    const t = await testGateway();
    const res = await call(t, 'POST', `/merchants/${t.siteId}/api-key`);
    expect(res.status).toBe(404);
    expect((await call(t, 'POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Still Works' })).status).toBe(200);
  });

  it('needs the platform headers and valid credentials like every merchant operation', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    expect((await call(t, 'POST', `/merchants/${merchant.id}/api-key`, undefined, { 'api-version': '' })).status).toBe(400);
    expect((await t.rest('POST', `/merchants/${merchant.id}/api-key`, undefined, { 'api-version': '10.3', 'x-vendor-siteid': t.siteId })).status).toBe(401);
    expect((await enrollAs(t, merchant)).status).toBe(200);
  });

  it('can be found again after a lost creation answer: the retry\'s 400 names the caller\'s merchant', async () => {
    const t = await testGateway();
    const lost = await createMerchant(t, { name: 'Corner Shop' });
    const retry = await call(t, 'POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Corner Shop' });
    expect(retry.status).toBe(400);
    expect(retry.body.message).toContain(lost.id);
    expect(retry.body.errors).toEqual([{ field: 'name', message: expect.stringContaining(lost.id) }]);
    const replaced = await call(t, 'POST', `/merchants/${lost.id}/api-key`);
    expect((await enrollAs(t, { id: lost.id, apiKey: replaced.body.apiKey })).status).toBe(200);
  });
});
