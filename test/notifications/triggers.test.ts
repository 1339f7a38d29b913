/**
 * The notifications of the decision platform from their real triggers (CONTRACT §4), delivered to a real receiver
 * that checks every body against its JSON schema: an account decision changed by the engine and by staff
 * `reviewAccount`, staff `decideOrder`, staff `decideItemListing`. (Evidence requests: claims.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { decide, itemListing, profileAccess } from '../platform/support.ts';
import { notifyingGateway } from './helpers.ts';

const staffCall = (t: Awaited<ReturnType<typeof notifyingGateway>>, query: string, variables: Record<string, unknown>) =>
  t.gql(query, variables, { token: t.adminToken }).then((res) => {
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data;
  });

describe('platform notifications from their triggers', () => {
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
