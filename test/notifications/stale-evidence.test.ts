/**
 * What an evidence request says is decided when it is sent (issue 14, defect 12; docs/notifications.md#decided-at-send-time):
 * a request queued while no MERCHANT_ENDPOINT was set, then answered in part, lists only the types still missing
 * when delivery is finally configured; answered in full, it is not sent at all, and staff see it DROPPED with why.
 * The run's database (a SQLite file, or a PostgreSQL schema in the postgres project) outlives the first gateway.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { backendEnv } from '../support/databases.ts';
import { afterThisTest, testGateway, type TestGateway } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';
import { tempDir } from '../support/temp-dir.ts';
import { listNotifications, openClaim, SIGNING_KEY, turnUntil } from './helpers.ts';

/** One database for a gateway without an endpoint and, later, one with it. */
function sharedDatabase(): Record<string, string> {
  const backend = backendEnv();
  afterThisTest(() => backend.cleanup());
  return { DATABASE_URL: `file:${join(tempDir(), 'stale.db')}`, ...backend.env, MERCHANT_SIGNING_KEY: SIGNING_KEY };
}

async function dataPoints(t: TestGateway, claimId: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.rest('POST', `/v2/claims/${claimId}/evidence/data-points`, body, { authorization: t.siteAuthorization });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const DELIVERY = { proofsOfDelivery: [{ carrier: 'UPS', trackingNumber: '1Z999' }] };
const CORRESPONDENCE = { customerCorrespondences: [{ from: 'buyer@example.com', text: 'Got it, thanks!' }] };

describe('an evidence request queued while no endpoint was set', () => {
  it('lists only the types still missing when it is finally sent', async () => {
    const env = sharedDatabase();
    const quiet = await testGateway({ clock: createManualClock(Date.now()), env });
    const claim = await openClaim(quiet, { requestedEvidenceTypes: ['PROOF_OF_DELIVERY', 'INVOICE', 'CUSTOMER_CORRESPONDENCE'] });
    await dataPoints(quiet, claim.claimId, DELIVERY);
    await quiet.gateway.dispose();

    const receiver = await startReceiver();
    const t = await testGateway({ clock: createManualClock(quiet.clock.now()), env: { ...env, MERCHANT_ENDPOINT: receiver.url } });
    const [request] = await receiver.waitFor(1);
    expect(request!.body.claimId).toBe(Number(claim.claimId));
    expect(request!.body.requestedEvidenceTypes).toEqual(['INVOICE', 'CUSTOMER_CORRESPONDENCE']);
    expect(receiver.schemaErrors).toEqual([]);
    await turnUntil(t, async () => (await listNotifications(t, { status: ['DELIVERED'] })).length === 1);
  });

  it('is not sent when nothing is left to ask, and staff see it DROPPED and why', async () => {
    const env = sharedDatabase();
    const quiet = await testGateway({ clock: createManualClock(Date.now()), env });
    const claim = await openClaim(quiet, { requestedEvidenceTypes: ['PROOF_OF_DELIVERY', 'CUSTOMER_CORRESPONDENCE'] });
    await dataPoints(quiet, claim.claimId, DELIVERY);
    await dataPoints(quiet, claim.claimId, CORRESPONDENCE);
    await quiet.gateway.dispose();

    const receiver = await startReceiver();
    const t = await testGateway({ clock: createManualClock(quiet.clock.now()), env: { ...env, MERCHANT_ENDPOINT: receiver.url } });
    const settled = await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.status !== 'PENDING'));
    await new Promise((r) => setTimeout(r, 100)); // a POST on its way would have arrived by now
    expect(receiver.requests.map((r) => r.body.requestedEvidenceTypes), 'a request for evidence already given was sent').toEqual([]);
    expect(settled).toMatchObject({ status: 'DROPPED', attemptCount: 0, attempts: [] });
    expect(settled.lastError).toMatch(/not sent/iu);
    expect(settled.lastError).toContain(claim.claimId);
  });
});
