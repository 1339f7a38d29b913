/**
 * 3DS recommendation enrollment (document 3 §2, §4; docs/platform.md#3ds-enrollment): PENDING at once, then COMPLETED or FAILED with a
 * reason when the scheduler reaches the row's due time (a manual clock moves it), exactly once, also after a restart.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { ENROLLMENT_DELAY_MS } from '../../src/risk/three-ds.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';
import { call, createMerchant, platformHeaders } from './support.ts';

async function enroll(t: TestGateway, merchantId: string, offerings: unknown) {
  const res = await call(t, 'POST', `/merchants/${merchantId}/3ds-recommendation`, { offerings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { requestId: string; status: string };
}

const status = async (t: TestGateway, merchantId: string, requestId: string) =>
  call(t, 'GET', `/merchants/${merchantId}/3ds-recommendation/${requestId}`);

const FULL = { jp_regulation: { enabled: true, acquirer_settings: [{ acquirer: 'acq-1', scenario: 'default' }] }, policy_3ds: true, psd2: true, risk_3ds: false };

describe('3DS recommendation enrollment', () => {
  it('answers a request id and PENDING, and completes when due', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const created = await enroll(t, merchant.id, FULL);
    expect(created).toEqual({ requestId: expect.any(String), status: 'PENDING' });
    expect((await status(t, merchant.id, created.requestId)).body).toMatchObject({ requestId: created.requestId, status: 'PENDING', offerings: FULL });

    await t.clock.advance(ENROLLMENT_DELAY_MS - 1);
    expect((await status(t, merchant.id, created.requestId)).body.status).toBe('PENDING');
    await t.clock.advance(1);
    const done = await status(t, merchant.id, created.requestId);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'COMPLETED', completedAt: new Date(t.clock.now()).toISOString() });
    expect(done.body.reason).toBeUndefined();
  });

  it.each([
    [{ jp_regulation: { enabled: true } }, /acquirer_settings/u],
    [{ jp_regulation: { enabled: true, acquirer_settings: [] }, psd2: true }, /acquirer_settings/u],
    [{ jp_regulation: { enabled: false, acquirer_settings: [{ acquirer: ' ', scenario: 'x' }] }, psd2: true }, /acquirer and a scenario/u],
    [{ psd2: false, risk_3ds: false }, /No offering is enabled/u],
  ])('fails an inconsistent request with a reason: %j', async (offerings, reason) => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const created = await enroll(t, merchant.id, offerings);
    expect(created.status).toBe('PENDING');
    await t.clock.advance(ENROLLMENT_DELAY_MS);
    expect((await status(t, merchant.id, created.requestId)).body).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(reason) });
  });

  it('400 for a mistyped request', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const cases: Array<[unknown, string]> = [
      [{}, 'offerings'],
      [{ offerings: 'psd2' }, 'offerings'],
      [{ offerings: { psd2: 'yes' } }, 'offerings.psd2'],
      [{ offerings: { jp_regulation: { enabled: 1 } } }, 'offerings.jp_regulation.enabled'],
      [{ offerings: { jp_regulation: { acquirer_settings: [{ acquirer: 7, scenario: 's' }] } } }, 'offerings.jp_regulation.acquirer_settings[0].acquirer'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t, 'POST', `/merchants/${merchant.id}/3ds-recommendation`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field, message: expect.any(String) });
    }
  });

  it('404 for an unknown merchant, an unknown request, or a request of another merchant', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    const other = await createMerchant(t, { name: 'Other Shop' });
    expect((await call(t, 'POST', '/merchants/site_nobody/3ds-recommendation', { offerings: { psd2: true } })).status).toBe(404);
    expect((await status(t, 'site_nobody', 'x')).status).toBe(404);
    expect((await status(t, merchant.id, '3ds_unknown')).body).toMatchObject({ status: 'error', message: expect.any(String) });
    const created = await enroll(t, merchant.id, FULL);
    expect((await status(t, other.id, created.requestId)).status).toBe(404);
    // The merchant's own site may ask about itself; the bootstrap site owns it.
    expect((await t.rest('GET', `/merchants/${merchant.id}/3ds-recommendation/${created.requestId}`, undefined, platformHeaders(t, merchant))).status).toBe(200);
  });

  it('completes each request exactly once, however many sweeps race for it', async () => {
    const t = await testGateway();
    const merchant = await createMerchant(t);
    for (let i = 0; i < 5; i++) await enroll(t, merchant.id, { psd2: true });
    // Let them fall due without the timer firing: the sweeps below are the only ones.
    await t.gateway.database.db.updateTable('three_ds_requests').set({ due_at: t.clock.now() }).execute();
    const counts = await Promise.all([1, 2, 3].map(() => t.gateway.services.platform.completeDueEnrollments()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(await t.gateway.services.platform.completeDueEnrollments()).toBe(0);
  });

  it('completes at start the requests that fell due while the app was stopped (same SQLite file)', async () => {
    const env = { DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}` };
    const clock = createManualClock();
    const first = await testGateway({ env, clock });
    const merchant = await createMerchant(first);
    const created = await enroll(first, merchant.id, { risk_3ds: true });
    await first.gateway.dispose();

    const second = await testGateway({ env, clock: createManualClock(clock.now() + 60_000) });
    expect((await status(second, merchant.id, created.requestId)).body.status).toBe('COMPLETED');
  });
});
