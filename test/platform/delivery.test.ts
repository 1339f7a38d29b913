/**
 * The platform's notifications leave the outbox for a real merchant endpoint (a node:http receiver on port 0):
 * an engine decision, reviewAccount, decideItemListing and decideOrder each arrive once, at their document 2
 * path, with a body that passes that path's JSON schema.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';
import { decide, itemListing, profileAccess } from './support.ts';

describe('platform notifications delivered', () => {
  it('arrive at the merchant endpoint with schema-valid bodies', async () => {
    const receiver = await startReceiver();
    afterThisTest(() => receiver.close());
    // The clock starts at the wall time so the Standard Webhooks timestamp is within tolerance.
    const t = await testGateway({ clock: createManualClock(Date.now()), env: { MERCHANT_ENDPOINT: receiver.url } });
    const staff = (query: string) => t.gql(query, {}, { token: t.adminToken });

    await decide(t, 'profile-access', 'p-1', profileAccess());
    await decide(t, 'item-listing', 'lst-1', itemListing({ accountData: { emailsInAccount: [{ email: 'review@vendor.test' }] } }));
    const { orderNumber } = await t.createOrder();
    await staff('mutation { reviewAccount(accountId: "acct-1", decision: RESTRICT_POLICY) { status } }');
    await staff('mutation { decideItemListing(eventId: "lst-1", action: RELEASE, triggeredBy: "ops@sleeve.test") { reviewStatus } }');
    await staff(`mutation { decideOrder(orderId: "${orderNumber}", action: RELEASE, triggeredBy: "ops@sleeve.test", comments: "ok") { action } }`);

    const received = await receiver.waitFor(5);
    expect(received.map((r) => r.path).sort()).toEqual([
      '/accountupdatenotification', // acct-1 ACTIVATE
      '/accountupdatenotification', // seller-1 NOT_REVIEWED
      '/accountupdatenotification', // acct-1 RESTRICT_POLICY
      '/itemlistingrequestupdatenotification',
      '/orderstatusupdatenotification',
    ].sort());
    expect(receiver.schemaErrors).toEqual([]);
    const order = received.find((r) => r.path === '/orderstatusupdatenotification')!;
    expect(order.body).toMatchObject({ orderId: orderNumber, merchantAction: 'RELEASE', agentComments: 'ok' });
  });
});
