/**
 * Notification, delivery and attempt ids in time order (docs/merchant-webhooks.md#how-it-is-built): UUIDv7s whose
 * first 48 bits are the millisecond they were made, so rows written later sort later and share the B-tree's last
 * pages. Checked on the generator, and on the ids a real trigger stores (its decision, notification, delivery and
 * attempt) and the delivery list shows.
 */
import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../src/kernel/tokens.ts';
import type { TestGateway } from '../support/gateway.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { deliveriesOf, endpointAt, merchantSite, recorded, turnUntil, webhookGateway, type Site } from './support.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
/** The millisecond a UUIDv7 carries. */
const millisecondOf = (uuid: string) => parseInt(uuid.replace(/-/gu, '').slice(0, 12), 16);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('time-ordered ids', () => {
  it('are UUIDv7s of the millisecond they were made, unique, and sort in the order they were made', async () => {
    const before = Date.now();
    const first = timeOrderedId('msg_');
    expect(first.slice(0, 4)).toBe('msg_');
    expect(first.slice(4)).toMatch(V7);
    expect(millisecondOf(first.slice(4))).toBeGreaterThanOrEqual(before);
    expect(millisecondOf(first.slice(4))).toBeLessThanOrEqual(Date.now());

    // More than the random pool holds (256 ids), so a refill is crossed.
    const many = Array.from({ length: 2_000 }, () => timeOrderedId());
    expect(new Set(many).size).toBe(many.length);
    for (const id of many) expect(id).toMatch(V7);

    const earlier: string[] = [];
    const later: string[] = [];
    for (let i = 0; i < 20; i++) earlier.push(timeOrderedId('dlv_'));
    await pause(3);
    for (let i = 0; i < 20; i++) later.push(timeOrderedId('dlv_'));
    for (const a of earlier) for (const b of later) expect(a < b).toBe(true);
  });

  it("a real trigger's decision, notification, delivery and attempt ids are time-ordered", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    // The second is triggered once the first is sent and recorded: each id is made in a later millisecond.
    for (const n of [1, 2]) {
      await notify(t, site, n);
      await turnUntil(t, () => at.receiver.requests.length === n);
      await recorded(t, site, at);
      await pause(3);
    }

    const deliveries = await deliveriesOf(t, site, at.id); // newest first
    expect(deliveries).toHaveLength(2);
    const [newer, older] = deliveries as [(typeof deliveries)[0], (typeof deliveries)[0]];
    for (const delivery of deliveries) {
      expect(delivery.id.slice(4)).toMatch(V7);
      expect(delivery.webhookId.slice(4)).toMatch(V7);
    }
    expect(older.id < newer.id).toBe(true);
    expect(older.webhookId < newer.webhookId).toBe(true);
    const attempts = await t.gateway.database.db.selectFrom('webhook_delivery_attempts').select(['id', 'delivery_id']).execute();
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(attempt.id.slice(4)).toMatch(V7);
    const attemptOf = (deliveryId: string) => attempts.find((a) => a.delivery_id === deliveryId)!.id;
    expect(attemptOf(older.id) < attemptOf(newer.id)).toBe(true);
    // The decisions that caused them (req_), stored in the same order.
    const decisions = await t.gateway.database.db.selectFrom('account_requests').select(['id', 'event_id']).where('event_id', 'in', ['ev-ids-1', 'ev-ids-2']).execute();
    expect(decisions).toHaveLength(2);
    const decisionOf = (eventId: string) => decisions.find((d) => d.event_id === eventId)!.id;
    for (const decision of decisions) expect(decision.id.slice(4)).toMatch(V7);
    expect(decisionOf('ev-ids-1') < decisionOf('ev-ids-2')).toBe(true);
  });
});

/** One /accountupdatenotification of `site`, from its real trigger (an account decision that needs verification). */
async function notify(t: TestGateway, site: Site, n: number): Promise<void> {
  const res = await t.rest('POST', `/v2/accounts/profile-access/ev-ids-${n}`, profileAccess({ accountId: `acct-ids-${n}`, accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
