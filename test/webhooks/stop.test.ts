/**
 * Stopping with a delivery in flight (`DeliveriesInFlight` in src/notifications/webhook-client.ts): a merchant's
 * endpoint that has not answered by the end of the shutdown grace has its POST aborted, the delivery's lease given
 * back and no attempt recorded, so the next start sends it at once with the same webhook-id, and the merchant is not
 * blamed for the aborted POST.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { testGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { deliveriesOf, endpointAt, merchantSite, turnUntil, webhookGateway } from './support.ts';

/** A gateway on a SQLite file whose merchant endpoint holds, unanswered, the POST of one account's notification. */
async function deliveryInFlight(account: string) {
  const file = `file:${join(tempDir(), `${account}.db`)}`;
  const t = await webhookGateway({ DATABASE_URL: file });
  const site = await merchantSite(t);
  const endpoint = await endpointAt(t, site);
  endpoint.receiver.hang(true);
  const res = await t.rest('POST', `/v2/accounts/profile-access/${account}`, profileAccess({ accountId: account, accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await endpoint.receiver.waitFor(1);
  /** The next start on the same file, its clock where this one's is. */
  const restart = () => testGateway({ clock: createManualClock(t.clock.now()), env: { DATABASE_URL: file, NOTIFY_RETRY_SCHEDULE: '0,5s,5m' } });
  return { t, site, endpoint, restart };
}

describe('merchant webhooks: stopping with a delivery in flight', () => {
  it('aborts it after the grace, records no attempt, and the next start sends it again at once', async () => {
    const { t, site, endpoint, restart } = await deliveryInFlight('stop-1');

    await t.gateway.dispose(); // waits out the grace for the answer, then aborts the POST and gives back the lease
    const next = await restart();
    endpoint.receiver.hang(false);
    await endpoint.receiver.waitFor(2); // no lease to wait for: the clock has not moved
    expect(endpoint.receiver.requests[1]!.headers['webhook-id']).toBe(endpoint.receiver.requests[0]!.headers['webhook-id']);
    const [delivery] = await turnUntil(next, async () => {
      const rows = await deliveriesOf(next, site, endpoint.id);
      return rows[0]?.status === 'DELIVERED' ? rows : undefined;
    });
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([200]); // the aborted POST is not an attempt
  });

  it('records an attempt answered within the grace, and the next start does not send it again', async () => {
    const { t, site, endpoint, restart } = await deliveryInFlight('grace-1');

    const stopped = t.gateway.dispose();
    endpoint.receiver.release(); // answered 200 once the stop has begun, well within its 3 s
    await stopped;
    const next = await restart();
    const [delivery] = await deliveriesOf(next, site, endpoint.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: [{ statusCode: 200 }] });
    await next.clock.advance(0);
    expect(endpoint.receiver.requests).toHaveLength(1);
  });
});
