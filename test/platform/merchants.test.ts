/** POST /merchants (document 3 §2, §8; docs/platform.md#merchant-names): every field rule at its edges, duplicates, the response. */
import { describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { call, createMerchant, platformHeaders } from './support.ts';

const VALID = { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Corner Shop' };

async function create(t: TestGateway, change: Record<string, unknown>) {
  return call(t, 'POST', '/merchants', { ...VALID, ...change });
}

async function expectRefused(t: TestGateway, change: Record<string, unknown>, field: string) {
  const res = await create(t, change);
  expect(res.status, `${JSON.stringify(change)} → ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.status).toBe('error');
  expect(res.body.errors).toContainEqual({ field, message: expect.any(String) });
}

async function expectAccepted(t: TestGateway, change: Record<string, unknown>) {
  const res = await create(t, change);
  expect(res.status, `${JSON.stringify(change)} → ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

describe('POST /merchants', () => {
  it('answers the request fields, the new site id and its apiKey once', async () => {
    const t = await testGateway();
    const body = await expectAccepted(t, { merchantAccountCreation: { ip: '192.0.2.10', timestamp: 1_763_800_000 }, extra: 'ignored' });
    expect(body).toEqual({
      ...VALID,
      merchantAccountCreation: { ip: '192.0.2.10', timestamp: 1_763_800_000 },
      id: expect.stringMatching(/^site_/u),
      apiKey: expect.any(String),
    });
    expect(body.apiKey.length).toBeGreaterThanOrEqual(32);
    const stored = await t.gql('query($id: ID!) { merchant(id: $id) { id merchantId name defaultMerchantCategoryCode ownerSiteId accountCreationIp accountCreationTimestamp } }', { id: body.id }, { token: t.adminToken });
    expect(stored.data.merchant).toEqual({ id: body.id, ...VALID, ownerSiteId: t.siteId, accountCreationIp: '192.0.2.10', accountCreationTimestamp: 1_763_800_000 });
    expect(JSON.stringify(stored)).not.toContain(body.apiKey);
  });

  it('defaultMerchantCategoryCode: exactly four digits, as a string', async () => {
    const t = await testGateway();
    await expectAccepted(t, { defaultMerchantCategoryCode: '0000', name: 'A' });
    for (const mcc of ['123', '12345', '12a4', ' 541', 5411, '', null]) await expectRefused(t, { defaultMerchantCategoryCode: mcc }, 'defaultMerchantCategoryCode');
    await expectRefused(t, { defaultMerchantCategoryCode: undefined }, 'defaultMerchantCategoryCode');
  });

  it('merchantId: 1 to 50 characters', async () => {
    const t = await testGateway();
    await expectAccepted(t, { merchantId: 'x'.repeat(50), name: 'A' });
    await expectAccepted(t, { merchantId: 'x', name: 'B' });
    for (const merchantId of ['x'.repeat(51), '', 42, undefined]) await expectRefused(t, { merchantId }, 'merchantId');
  });

  it('name: 1 to 70 of letters A-Z, digits, spaces and . _ & , ^ -', async () => {
    const t = await testGateway();
    await expectAccepted(t, { name: 'N'.repeat(70) });
    await expectAccepted(t, { name: 'A.b_c&d,e^f-g 19' });
    for (const name of ['N'.repeat(71), '', '   ', 'Café', 'a/b', 'x@y', "O'Brien", 'tab\there', 7]) await expectRefused(t, { name }, 'name');
  });

  it('merchantAccountCreation: optional; ip at most 45 characters; timestamp whole seconds', async () => {
    const t = await testGateway();
    await expectAccepted(t, { name: 'A1', merchantAccountCreation: null });
    await expectAccepted(t, { name: 'A2', merchantAccountCreation: { ip: null, timestamp: null } });
    await expectAccepted(t, { name: 'A3', merchantAccountCreation: { ip: `${'0:'.repeat(22)}1` } }); // 45 characters
    await expectAccepted(t, { name: 'A4', merchantAccountCreation: { timestamp: 9_999_999_999 } });
    await expectRefused(t, { merchantAccountCreation: { ip: `${'0:'.repeat(22)}12` } }, 'merchantAccountCreation.ip');
    await expectRefused(t, { merchantAccountCreation: { ip: 'not an ip' } }, 'merchantAccountCreation.ip');
    for (const timestamp of [1_763_800_000_000, 1.5, -1, '1763800000']) {
      await expectRefused(t, { merchantAccountCreation: { timestamp } }, 'merchantAccountCreation.timestamp');
    }
    await expectRefused(t, { merchantAccountCreation: 'yesterday' }, 'merchantAccountCreation');
  });

  it('lists every failing field of one request', async () => {
    const t = await testGateway();
    const res = await call(t, 'POST', '/merchants', {});
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['defaultMerchantCategoryCode', 'merchantId', 'name']);
    expect((await call(t, 'POST', '/merchants', [VALID])).status).toBe(400);
  });

  it('refuses a duplicate name on the same site, case-insensitively; another site may reuse it', async () => {
    const t = await testGateway();
    const first = await createMerchant(t, { name: 'Corner Shop' });
    const duplicate = await create(t, { name: 'CORNER shop', merchantId: 'm-2' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ status: 'error', message: expect.stringMatching(/already exists/u), errors: [{ field: 'name', message: expect.any(String) }] });
    const other = await t.rest('POST', '/merchants', { ...VALID, name: 'corner shop' }, platformHeaders(t, first));
    expect(other.status).toBe(200);
  });
});
