/**
 * Each of document 2's five bodies, built with the types of src/notifications/bodies.ts, goes through the outbox
 * and the dispatcher to a real receiver that checks it against its JSON schema. `/token-updated` carries
 * `signature`, recomputed here. (The producers' own triggers are tested in triggers.test.ts.)
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  dashboardLinks,
  epochSeconds,
  numericTimestamp,
  type AccountUpdateBody,
  type ItemListingUpdateBody,
  type OrderStatusUpdateBody,
  type TokenUpdatedBody,
} from '../../src/notifications/bodies.ts';
import type { NotificationBodies, NotificationPath } from '../../src/notifications/notification-paths.ts';
import { announceQueued, queueNotification } from '../../src/notifications/outbox-service.ts';
import { standardWebhooksSecret } from '../../src/notifications/signing.ts';
import { schemaProblems } from '../support/receiver.ts';
import { notifyingGateway, SIGNING_KEY, type NotifyingGateway } from './helpers.ts';

async function queue<P extends NotificationPath>(t: NotifyingGateway, path: P, body: NotificationBodies[P]): Promise<void> {
  const now = t.clock.now();
  const queued = await t.gateway.database.db.transaction().execute((trx) => queueNotification(trx, path, body, { now }));
  announceQueued(t.gateway.bus, [queued]);
}

const tokenUpdated = (now: number): TokenUpdatedBody => ({
  token: 'tok_1',
  card: { bin: '411111', lastFourDigits: '1111', expiration: '1229', state: 'ACTIVE' },
  source: 'ACCOUNT_UPDATER',
  updatedFields: { expirationMonth: '12', expirationYear: '2029' },
  cardArt: Buffer.from('card').toString('base64'),
  timestamp: numericTimestamp(now),
});

describe('the five notification bodies', () => {
  it('arrive valid against their schemas, and /token-updated carries a signature the merchant can recompute', async () => {
    const t = await notifyingGateway();
    const now = t.clock.now();
    const url = 'http://sleeve.test';
    const account: AccountUpdateBody = {
      timestamp: epochSeconds(now),
      type: 'VENDOR_ACCOUNT_STATUS_UPDATE',
      accountId: 'acct-1',
      vendorDecision: 'VERIFICATION_REQUIRED',
      reasons: ['velocity'],
      recommendations: ['SMS_VERIFICATION'],
      linkToAccountInDashboard: dashboardLinks.account(url, 'acct-1', 'site_test'),
    };
    const order: OrderStatusUpdateBody = {
      timestamp: epochSeconds(now),
      type: 'ORDER_STATUS_UPDATE',
      orderId: 'ord-1',
      merchantAction: 'RELEASE',
      triggeredBy: 'staff@example.com',
      agentComments: 'checked by phone',
      linkToOrderInDashboard: dashboardLinks.order(url, 'ord-1'),
    };
    const listing: ItemListingUpdateBody = {
      timestamp: numericTimestamp(now),
      type: 'ITEM_LISTING_REQUEST_UPDATE',
      accountId: 'acct-1',
      eventId: 'evt-1',
      correlationId: 'cor-1',
      merchantAction: 'RELEASE',
      triggeredBy: 'staff@example.com',
      linkToEventInVendorDashboard: dashboardLinks.itemListing(url, 'evt-1', 'site-1'),
    };
    await queue(t, '/token-updated', tokenUpdated(now));
    await queue(t, '/accountupdatenotification', account);
    await queue(t, '/orderstatusupdatenotification', order);
    await queue(t, '/itemlistingrequestupdatenotification', listing);
    const requests = await t.receiver.waitFor(4);
    expect(requests.map((r) => r.path).sort()).toEqual(['/accountupdatenotification', '/itemlistingrequestupdatenotification', '/orderstatusupdatenotification', '/token-updated']);
    expect(t.receiver.schemaErrors).toEqual([]);

    const token = requests.find((r) => r.path === '/token-updated')!;
    expect(token.headers.signature).toBe(createHmac('sha256', SIGNING_KEY).update(token.raw).digest('hex'));
    expect(token.headers.signature).toMatch(/^[0-9a-f]{64}$/u);
    const webhook = new Webhook(standardWebhooksSecret(SIGNING_KEY));
    for (const request of requests) {
      expect(webhook.verify(request.raw, request.headers as Record<string, string>)).toEqual(request.body);
      if (request.path !== '/token-updated') expect(request.headers.signature).toBeUndefined();
    }
  });

  it('have schemas that refuse what document 2 forbids', () => {
    const now = Date.now();
    expect(schemaProblems('/token-updated', tokenUpdated(now))).toEqual([]);
    expect(schemaProblems('/token-updated', { ...tokenUpdated(now), timestamp: now })).not.toEqual([]); // a numeric *string*
    expect(schemaProblems('/orderstatusupdatenotification', { type: 'ORDER_STATUS_UPDATE', triggeredBy: 'x'.repeat(76) })).not.toEqual([]);
    expect(schemaProblems('/orderstatusupdatenotification', { type: 'ORDER_STATUS_UPDATE', agentComments: 'x'.repeat(256) })).not.toEqual([]);
    expect(schemaProblems('/accountupdatenotification', { type: 'VENDOR_ACCOUNT_STATUS_UPDATE', timestamp: now })).not.toEqual([]); // int32 seconds
    expect(schemaProblems('/accountupdatenotification', { type: 'ORDER_STATUS_UPDATE' })).not.toEqual([]);
    expect(schemaProblems('/itemlistingrequestupdatenotification', { type: 'ITEM_LISTING_REQUEST_UPDATE', surprise: 1 })).not.toEqual([]);
    expect(schemaProblems('/requestforevidencenotification', { timestamp: new Date(now).toISOString() })).not.toEqual([]);
  });
});
