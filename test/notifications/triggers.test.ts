/**
 * Notifications from their real triggers (docs/notifications.md#triggers), delivered to a real receiver that checks every body
 * against its JSON schema: `/token-updated` from a card update and from async network token provisioning (with
 * its `signature` recomputed); an account decision changed by the engine and by staff `reviewAccount`; staff
 * `decideOrder`; staff `decideItemListing`. (Evidence requests and reminders: claims.test.ts.)
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NETWORK_TOKEN_DELAY_MS } from '../../src/payments/tokenization-service.ts';
import { card, CARDS, siteCalls } from '../payments/support.ts';
import { decide, itemListing, profileAccess } from '../platform/support.ts';
import { notifyingGateway, SIGNING_KEY } from './helpers.ts';

const staffCall = (t: Awaited<ReturnType<typeof notifyingGateway>>, query: string, variables: Record<string, unknown>) =>
  t.gql(query, variables, { token: t.adminToken }).then((res) => {
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data;
  });

describe('notifications from their triggers', () => {
  it('a card update, then an async network token, send /token-updated with a signature over the exact body', async () => {
    const t = await notifyingGateway();
    const api = siteCalls(t);
    const token = await api.token(CARDS.ok);
    expect((await api.updateCard(card(CARDS.ok, { expirationMonth: 3, expirationYear: 2031 }))).status).toBe(200);
    expect((await api.upgrade({ token, networkToken: { provision: true, async: true } })).status).toBe(200);
    await t.clock.advance(NETWORK_TOKEN_DELAY_MS);
    const [update, provisioned] = await t.receiver.waitFor(2);
    expect(update!.path).toBe('/token-updated');
    expect(update!.body).toMatchObject({ token, source: 'ACCOUNT_UPDATER', updatedFields: { expirationMonth: '3', expirationYear: '2031' } });
    expect(provisioned!.body).toMatchObject({ token, source: 'NETWORK_TOKEN_PROVISIONING', updatedFields: { networkTokenState: 'ACTIVE' } });
    for (const request of [update!, provisioned!]) {
      expect(request.headers.signature).toBe(createHmac('sha256', SIGNING_KEY).update(request.raw).digest('hex'));
    }
    expect(JSON.stringify(t.receiver.requests.map((r) => r.raw))).not.toContain(CARDS.ok);
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  it('an account decision by the engine, then by staff, sends /accountupdatenotification', async () => {
    const t = await notifyingGateway();
    await decide(t, 'profile-access', 'ev-1', profileAccess({ accountId: 'acct-7', accountOwner: { email: 'verify@vendor.test' } }));
    await t.receiver.waitFor(1);
    await staffCall(t, 'mutation { reviewAccount(accountId: "acct-7", decision: ACTIVATE, reasons: ["checked"]) { status } }', {});
    const [engine, staff] = await t.receiver.waitFor(2);
    expect(engine!.path).toBe('/accountupdatenotification');
    expect(engine!.body).toMatchObject({ type: 'VENDOR_ACCOUNT_STATUS_UPDATE', accountId: 'acct-7', vendorDecision: 'VERIFICATION_REQUIRED' });
    expect(staff!.body).toMatchObject({ type: 'VENDOR_ACCOUNT_STATUS_UPDATE', accountId: 'acct-7', vendorDecision: 'ACTIVATE', reasons: ['checked'] });
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  it('staff decideOrder sends /orderstatusupdatenotification', async () => {
    const t = await notifyingGateway();
    const { orderNumber } = await t.createOrder();
    await staffCall(t, 'mutation ($o: ID!) { decideOrder(orderId: $o, action: RELEASE, triggeredBy: "staff@example.com", comments: "fine") { action } }', { o: orderNumber });
    const [request] = await t.receiver.waitFor(1);
    expect(request!.path).toBe('/orderstatusupdatenotification');
    expect(request!.body).toMatchObject({ type: 'ORDER_STATUS_UPDATE', orderId: orderNumber, merchantAction: 'RELEASE', triggeredBy: 'staff@example.com', agentComments: 'fine' });
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  it('staff decideItemListing sends /itemlistingrequestupdatenotification', async () => {
    const t = await notifyingGateway();
    await decide(t, 'item-listing', 'lst-1', itemListing({ accountData: { emailsInAccount: [{ email: 'review@vendor.test' }] } }));
    await staffCall(t, 'mutation { decideItemListing(eventId: "lst-1", action: RELEASE, triggeredBy: "staff@example.com") { reviewStatus } }', {});
    const request = await (async () => {
      for (let n = 1; ; n++) {
        const found = (await t.receiver.waitFor(n)).find((r) => r.path === '/itemlistingrequestupdatenotification');
        if (found) return found;
      }
    })();
    expect(request.body).toMatchObject({ type: 'ITEM_LISTING_REQUEST_UPDATE', eventId: 'lst-1', merchantAction: 'RELEASE', triggeredBy: 'staff@example.com' });
    expect(t.receiver.schemaErrors).toEqual([]);
  });
});
