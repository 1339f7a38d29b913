/**
 * Every site its own endpoints (docs/merchant-webhooks.md#ownership): two merchant sites and the bootstrap site each
 * register an endpoint at a real receiver, the five notifications are caused by their real triggers, and each
 * endpoint receives exactly its own site's, signed with its own secret (verified by the standardwebhooks library).
 * Event-type filters; one webhook-id per message at every endpoint of a site.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { itemListing, platformHeaders, profileAccess } from '../platform/support.ts';
import { card, CARDS, paymentBody } from '../payments/support.ts';
import { daysAhead, openClaim, OPEN_CLAIM } from '../notifications/helpers.ts';
import type { TestGateway } from '../support/gateway.ts';
import { eventually, type Receiver } from '../support/receiver.ts';
import { bootstrapSite, deliveriesOf, endpointAt, merchantSite, webhookGateway, type Site } from './support.ts';

const staff = async (t: TestGateway, query: string, variables: Record<string, unknown> = {}) => {
  const res = await t.gql(query, variables, { token: t.adminToken });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
};

/** The four notifications a merchant site causes: a card update, an account decision, a listing and a payment decided by staff. */
async function causeSiteNotifications(t: TestGateway, site: Site, tag: string): Promise<string> {
  const headers = platformHeaders(t, { id: site.id, apiKey: site.apiKey });
  const tokenized = await t.rest('POST', '/v1/tokenization/tokenize', card(CARDS.ok), site.auth);
  expect(tokenized.status, JSON.stringify(tokenized.body)).toBe(200);
  expect((await t.rest('POST', '/v1/account-updater/card/update', card(CARDS.ok, { expirationMonth: 4, expirationYear: 2032 }), site.auth)).status).toBe(200);
  const account = await t.rest('POST', `/v2/accounts/profile-access/pa-${tag}`, profileAccess({ accountId: `acct-${tag}`, accountOwner: { email: 'verify@vendor.test' } }), headers);
  expect(account.status, JSON.stringify(account.body)).toBe(200);
  const listing = await t.rest('POST', `/v2/accounts/item-listing/lst-${tag}`, itemListing({ accountId: `seller-${tag}`, accountData: { emailsInAccount: [{ email: 'review@vendor.test' }] } }), headers);
  expect(listing.status, JSON.stringify(listing.body)).toBe(200);
  await staff(t, `mutation { decideItemListing(eventId: "lst-${tag}", action: RELEASE, triggeredBy: "staff@example.com") { reviewStatus } }`);
  const paid = await t.rest('POST', '/api/payments', paymentBody(CARDS.ok, { orderId: `order-${tag}` }), site.auth);
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  await staff(t, 'mutation ($o: ID!) { decideOrder(orderId: $o, action: RELEASE, triggeredBy: "staff@example.com") { action } }', { o: paid.body.id });
  return tokenized.body.token as string;
}

const paths = (receiver: Receiver) => [...new Set(receiver.requests.map((r) => r.path))].sort();

describe('merchant webhooks: ownership', () => {
  it("site A's and site B's endpoints each receive only their own site's notifications; the bootstrap site's its own", async () => {
    const t = await webhookGateway();
    const [a, b, home] = [await merchantSite(t), await merchantSite(t), bootstrapSite(t)];
    const [atA, atB, atHome] = [await endpointAt(t, a), await endpointAt(t, b), await endpointAt(t, home)];

    const tokenA = await causeSiteNotifications(t, a, 'a');
    const tokenB = await causeSiteNotifications(t, b, 'b');
    // The bootstrap site's: an evidence request for a sleeve order's claim, and the sleeve order decided by staff.
    const claim = await openClaim(t);
    await staff(t, 'mutation ($o: ID!) { decideOrder(orderId: $o, action: RELEASE, triggeredBy: "staff@example.com") { action } }', { o: claim.orderId });

    const forSite = ['/accountupdatenotification', '/itemlistingrequestupdatenotification', '/orderstatusupdatenotification', '/token-updated'];
    await eventually(() => paths(atA.receiver).length === 4 && paths(atB.receiver).length === 4 && paths(atHome.receiver).length === 2);
    expect(paths(atA.receiver)).toEqual(forSite);
    expect(paths(atB.receiver)).toEqual(forSite);
    expect(paths(atHome.receiver)).toEqual(['/orderstatusupdatenotification', '/requestforevidencenotification']);
    expect(atA.receiver.requests.find((r) => r.path === '/token-updated')!.body.token).toBe(tokenA);
    expect(atB.receiver.requests.find((r) => r.path === '/token-updated')!.body.token).toBe(tokenB);
    expect(JSON.stringify(atA.receiver.requests.map((r) => r.body))).not.toContain('acct-b');
    expect(JSON.stringify(atB.receiver.requests.map((r) => r.body))).not.toContain('acct-a');

    // Each signed with its own secret: standardwebhooks verifies with it and refuses the other site's.
    for (const [at, other] of [[atA, atB], [atB, atA], [atHome, atA]] as const) {
      for (const request of at.receiver.requests) {
        expect(new Webhook(at.secret).verify(request.raw, request.headers as Record<string, string>)).toEqual(request.body);
        expect(() => new Webhook(other.secret).verify(request.raw, request.headers as Record<string, string>)).toThrow();
      }
      const token = at.receiver.requests.find((r) => r.path === '/token-updated');
      if (token) expect(token.headers.signature).toBe(createHmac('sha256', Buffer.from(at.secret.slice(6), 'base64')).update(token.raw).digest('hex'));
      expect(at.receiver.schemaErrors).toEqual([]);
    }
    // Nothing arrives twice: every webhook-id once at each endpoint, all recorded DELIVERED (the clock is moved only
    // once they are: moved past the lease of an attempt in flight, it would be sent again, at least once as documented).
    for (const [site, at] of [[a, atA], [b, atB], [home, atHome]] as const) {
      await eventually(async () => (await deliveriesOf(t, site, at.id)).every((d) => d.status === 'DELIVERED'));
    }
    await t.clock.advance(60_000);
    for (const at of [atA, atB, atHome]) expect(at.receiver.distinct()).toHaveLength(at.receiver.requests.length);
  });

  it("a claim is its order's site's: found from the payment, another site refused, a shared orderId needs the site", async () => {
    const t = await webhookGateway();
    const [a, b] = [await merchantSite(t), await merchantSite(t)];
    const [atA, atB] = [await endpointAt(t, a, { eventTypes: ['requestforevidencenotification'] }), await endpointAt(t, b, { eventTypes: ['requestforevidencenotification'] })];
    const paidA = await t.rest('POST', '/api/payments', paymentBody(CARDS.ok, { orderId: 'shared-order' }), a.auth);
    const paidB = await t.rest('POST', '/api/payments', paymentBody(CARDS.ok, { orderId: 'shared-order' }), b.auth);
    expect([paidA.status, paidB.status]).toEqual([201, 201]);
    const claim = (orderId: string, siteId?: string) =>
      t.gql(OPEN_CLAIM, { input: { orderId, claimType: 'CHARGEBACK', amount: 19.99, currency: 'USD', dueDate: daysAhead(t, 5), requestedEvidenceTypes: ['PROOF_OF_DELIVERY'], ...(siteId ? { siteId } : {}) } }, { token: t.adminToken });

    // A's payment, named by its id, under B's site: refused, nothing sent (it went to B's endpoint before).
    const stolen = await claim(paidA.body.id, b.id);
    expect(stolen.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'siteId' });
    // The merchants' shared orderId: which site is meant must be said.
    expect((await claim('shared-order')).errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'siteId' });
    // Found from the payment alone, and named with its own site: each at its own site's endpoint only.
    const opened = await claim(paidA.body.id);
    expect(opened.errors).toBeUndefined();
    expect((await claim('shared-order', b.id)).errors).toBeUndefined();
    await eventually(() => atA.receiver.requests.length === 1 && atB.receiver.requests.length === 1);
    // Each names the merchant's own orderId: a payment named by its id is kept as its orderId, so one payment's
    // evidence requests name one order whatever staff typed (they carried "pay_…" or the orderId as typed).
    expect(atA.receiver.requests[0]!.body.orderId).toBe('shared-order');
    expect(atB.receiver.requests[0]!.body.orderId).toBe('shared-order');
    expect((await claim('shared-order', a.id)).errors).toBeUndefined();
    await eventually(() => atA.receiver.requests.length === 2);
    expect(atA.receiver.requests[1]!.body.orderId).toBe('shared-order');
    // Only the claim's site answers it with evidence.
    const claimId = opened.data.openClaim.claimId as number;
    const evidence = (site: Site) => t.rest('POST', `/v2/claims/${claimId}/evidence/data-points`, { proofsOfDelivery: [{ carrier: 'UPS', trackingNumber: '1Z999', deliveredAt: '2026-11-20' }] }, site.auth);
    expect((await evidence(b)).status).toBe(404);
    const answered = await evidence(a);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await t.clock.advance(10_000);
    expect(atB.receiver.requests).toHaveLength(1);
  });

  it("decideItemListing decides the listing of the site meant, and asks which when two sites share the event id", async () => {
    const t = await webhookGateway();
    const [a, b] = [await merchantSite(t), await merchantSite(t)];
    const [atA, atB] = [await endpointAt(t, a, { eventTypes: ['itemlistingrequestupdatenotification'] }), await endpointAt(t, b, { eventTypes: ['itemlistingrequestupdatenotification'] })];
    for (const [site, email] of [[a, 'approve@vendor.test'], [b, 'review@vendor.test']] as const) {
      const listed = await t.rest('POST', '/v2/accounts/item-listing/lst-shared', itemListing({ accountId: `seller-${site.id}`, accountData: { emailsInAccount: [{ email }] } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    }
    const decide = (siteId?: string) =>
      t.gql(`mutation ($s: String) { decideItemListing(eventId: "lst-shared", siteId: $s, action: CANCEL, triggeredBy: "staff@example.com") { siteId reviewStatus } }`, { s: siteId ?? null }, { token: t.adminToken });
    expect((await decide()).errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'siteId' });
    expect((await decide(b.id)).data.decideItemListing).toEqual({ siteId: b.id, reviewStatus: 'CANCELLED' });
    await eventually(() => atB.receiver.requests.length === 1);
    await t.clock.advance(10_000);
    expect(atA.receiver.requests).toHaveLength(0);
    expect(atB.receiver.requests[0]!.body).toMatchObject({ eventId: 'lst-shared', merchantAction: 'CANCEL', accountId: `seller-${b.id}` });
  });

  it('event-type filters: an endpoint takes only its types; two endpoints of a site see one webhook-id per message', async () => {
    const t = await webhookGateway();
    const a = await merchantSite(t);
    const accounts = await endpointAt(t, a, { eventTypes: ['accountupdatenotification'] });
    const all = await endpointAt(t, a, { description: 'everything' });
    await causeSiteNotifications(t, a, 'f');
    await eventually(() => paths(all.receiver).length === 4);
    const accountUpdates = () => all.receiver.requests.filter((r) => r.path === '/accountupdatenotification');
    await eventually(() => accounts.receiver.requests.length === accountUpdates().length);
    await t.clock.advance(10_000);
    expect(paths(accounts.receiver)).toEqual(['/accountupdatenotification']);
    // The same messages, with the same webhook-id and bytes, at both endpoints.
    const ids = (requests: Receiver['requests']) => requests.map((r) => `${r.headers['webhook-id']} ${r.raw}`).sort();
    expect(ids(accounts.receiver.requests)).toEqual(ids(accountUpdates()));
  });
});
