/**
 * Isolation (docs/merchant-webhooks.md#isolation): an endpoint that hangs for the whole timeout, or one with a large
 * backlog, never delays another endpoint's deliveries. Asserted on what has arrived where, never on timing ratios:
 * while one endpoint holds every request it gets unanswered (the clock does not move, so its 10 s timeout never
 * fires), the other endpoint receives all of its notifications, and the hanging one has been sent no more than its
 * per-endpoint share.
 */
import { describe, expect, it } from 'vitest';
import { queueNotification } from '../../src/notifications/outbox-service.ts';
import { OWN_SLOTS, PER_ENDPOINT, PER_SITE } from '../../src/notifications/delivery-slots.ts';
import { DELIVERY_TIMEOUT_MS } from '../../src/notifications/webhook-client.ts';
import type { TestGateway } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { endpointAt, merchantSite, webhookGateway, type Site } from './support.ts';

let accounts = 0;
async function notify(t: TestGateway, site: Site): Promise<void> {
  accounts += 1;
  const res = await t.rest('POST', `/v2/accounts/profile-access/iso-${accounts}`, profileAccess({ accountId: `iso-${accounts}`, accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('merchant webhooks: isolation', () => {
  it("an endpoint that hangs holds only its own slots: another site's endpoint receives everything meanwhile", async () => {
    const t = await webhookGateway();
    const [slowSite, site] = [await merchantSite(t), await merchantSite(t)];
    const hanging = await endpointAt(t, slowSite);
    const healthy = await endpointAt(t, site);
    hanging.receiver.hang(true);
    for (let i = 0; i < 20; i++) await notify(t, slowSite);
    for (let i = 0; i < 20; i++) await notify(t, site);
    await eventually(() => healthy.receiver.distinct().length === 20);
    expect(hanging.receiver.requests.length).toBeGreaterThan(0);
    expect(hanging.receiver.requests.length).toBeLessThanOrEqual(PER_ENDPOINT);
    // A second endpoint of the slow site itself is not held up by its sibling either.
    const sibling = await endpointAt(t, slowSite);
    await notify(t, slowSite);
    await sibling.receiver.waitFor(1);
    hanging.receiver.release();
  });

  it('endpoints of a site that hang together, enough to fill its share, never hold up a healthy sibling of theirs', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const hanging: Array<Awaited<ReturnType<typeof endpointAt>>> = [];
    // One more than fill the share at PER_ENDPOINT each, as in the test below.
    const count = PER_SITE / PER_ENDPOINT + 1;
    for (let i = 0; i < count; i++) hanging.push(await endpointAt(t, site));
    for (const at of hanging) at.receiver.hang(true);
    for (let i = 0; i < PER_ENDPOINT; i++) await notify(t, site);
    const received = () => hanging.reduce((n, at) => n + at.receiver.requests.length, 0);
    await eventually(() => received() >= PER_SITE);
    // The clock stands still: their timeouts never fire, so nothing they hold is freed. Before, the sibling's
    // notifications waited for those timeouts (a merchant review: four hanging endpoints, 8 to 20 s).
    const sibling = await endpointAt(t, site);
    for (let i = 0; i < 3; i++) await notify(t, site);
    await eventually(() => sibling.receiver.distinct().length === 3);
    for (const at of hanging) at.receiver.release();
  });

  it('an endpoint in a failure run holds only its own slots until an attempt succeeds, then all of its share again', async () => {
    const t = await webhookGateway({ NOTIFY_RETRY_SCHEDULE: '0,1s,1s,1s,1s,1s' });
    const site = await merchantSite(t);
    const endpoint = await endpointAt(t, site);
    endpoint.receiver.hang(true);
    for (let i = 0; i < PER_ENDPOINT + 4; i++) await notify(t, site);
    await endpoint.receiver.waitFor(PER_ENDPOINT);
    await t.clock.advance(DELIVERY_TIMEOUT_MS); // every attempt in flight times out: its failure run begins
    await endpoint.receiver.waitFor(PER_ENDPOINT + OWN_SLOTS);
    await t.clock.advance(1_000); // the retries are due too
    await notify(t, site);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(endpoint.receiver.requests.length).toBe(PER_ENDPOINT + OWN_SLOTS);
    endpoint.receiver.hang(false);
    endpoint.receiver.release();
    await eventually(() => endpoint.receiver.distinct().length === PER_ENDPOINT + 5);
  });

  it(`a site whose endpoints all hang holds at most its share of the instance (${PER_SITE}) beyond their own slots, and its endpoints take turns`, async () => {
    const t = await webhookGateway();
    const [slowSite, site] = [await merchantSite(t), await merchantSite(t)];
    // More hanging endpoints than the site's share holds at PER_ENDPOINT each; every notification goes to each.
    const count = PER_SITE / PER_ENDPOINT + 1;
    const hanging: Array<Awaited<ReturnType<typeof endpointAt>>> = [];
    for (let i = 0; i < count; i++) hanging.push(await endpointAt(t, slowSite));
    for (const at of hanging) at.receiver.hang(true);
    for (let i = 0; i < PER_ENDPOINT; i++) await notify(t, slowSite);
    const received = () => hanging.reduce((n, at) => n + at.receiver.requests.length, 0);
    const held = PER_SITE + count * OWN_SLOTS;
    await eventually(() => received() === held);
    const healthy = await endpointAt(t, site);
    for (let i = 0; i < 5; i++) await notify(t, site);
    await eventually(() => healthy.receiver.distinct().length === 5);
    expect(received()).toBe(held);
    // Slots one endpoint frees go on at once to the site's endpoints still owed deliveries, not to that one alone
    // (it has fewer left than it frees): the site is back at its share, and never over it.
    const first = hanging[0]!;
    const released = first.receiver.requests.length;
    first.receiver.release();
    await eventually(() => received() === Math.min(held + released, count * PER_ENDPOINT));
    expect(received() - released).toBeLessThanOrEqual(held);
    for (const at of hanging) at.receiver.release();
  });

  it("an endpoint that answers 500 to everything, retried on its schedule, does not hold up another site's endpoint", async () => {
    const t = await webhookGateway({ NOTIFY_RETRY_SCHEDULE: '0,1s,1s,1s,1s,1s' });
    const [badSite, site] = [await merchantSite(t), await merchantSite(t)];
    const failing = await endpointAt(t, badSite);
    const healthy = await endpointAt(t, site);
    failing.receiver.failNext(1_000);
    for (let i = 0; i < 10; i++) {
      await notify(t, badSite);
      await notify(t, site);
    }
    await eventually(() => healthy.receiver.distinct().length === 10 && failing.receiver.distinct().length === 10);
    for (let round = 0; round < 3; round++) await t.clock.advance(1_000); // the failing one's retries come and go
    await notify(t, site);
    await eventually(() => healthy.receiver.distinct().length === 11);
    expect(healthy.receiver.requests).toHaveLength(11);
    expect(failing.receiver.requests.every((r) => r.headers['webhook-id'])).toBe(true);
  });

  it("a backlog of thousands at one endpoint does not queue another endpoint's message behind it", async () => {
    const t = await webhookGateway();
    const [busySite, site] = [await merchantSite(t), await merchantSite(t)];
    const busy = await endpointAt(t, busySite);
    const other = await endpointAt(t, site);
    const backlog = 3_000;
    const now = t.clock.now();
    await t.gateway.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < backlog; i++) {
        await queueNotification(trx, '/orderstatusupdatenotification', { timestamp: Math.floor(now / 1000), type: 'ORDER_STATUS_UPDATE', orderId: `o-${i}`, merchantAction: 'RELEASE', triggeredBy: 'bench', linkToOrderInDashboard: 'http://sleeve.test/staff' }, { now, site: busySite.id });
      }
    });
    t.gateway.bus.publish('notificationQueued', { ids: [] });
    await busy.receiver.waitFor(1);
    await notify(t, site);
    await other.receiver.waitFor(1);
    // The other site's message arrived while the backlog was still being worked off.
    expect(busy.receiver.requests.length).toBeLessThan(backlog);
    await eventually(() => busy.receiver.requests.length === backlog, 60_000);
    expect(busy.receiver.distinct()).toHaveLength(backlog);
  }, 90_000);
});
