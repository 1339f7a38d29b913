/**
 * Merchant webhooks over staff GraphQL (docs/merchant-webhooks.md#staff-graphql), through the real /graphql door (and
 * again over the production entry in the production-entry project): every field refused to a caller without the
 * staff token, changing nothing; staff create, update, rotate, test, redeliver and recover for any site, naming it
 * (another site's endpoint is NOT_FOUND); the connections with global ids that node(id) answers; secrets only in the
 * create and rotate answers; and the live `webhookDeliveries` subscription over graphql-ws.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createMerchant, platformHeaders } from '../platform/support.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';
import { codeOf, staffRequests } from './staff-operations.ts';

const ENDPOINT_FIELDS = 'id endpointId siteId url description eventTypes enabled disabledReason failingSince throttledUntil previousSecretExpiresAt createdAt updatedAt';
const DELIVERY_FIELDS = 'id deliveryId webhookId siteId eventType status attemptCount nextAttemptAt createdAt deliveredAt lastError attempts { attempt statusCode } endpoint { endpointId }';

const CREATE = `mutation ($siteId: ID!, $input: WebhookEndpointInput!) { createWebhookEndpoint(siteId: $siteId, input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`;
const UPDATE = `mutation ($siteId: ID!, $id: ID!, $input: WebhookEndpointPatch!) { updateWebhookEndpoint(siteId: $siteId, id: $id, input: $input) { ${ENDPOINT_FIELDS} } }`;
const ROTATE = `mutation ($siteId: ID!, $id: ID!) { rotateWebhookSecret(siteId: $siteId, id: $id) { secret previousSecretExpiresAt endpoint { ${ENDPOINT_FIELDS} } } }`;
const TEST = `mutation ($siteId: ID!, $id: ID!) { testWebhookEndpoint(siteId: $siteId, id: $id) { ${DELIVERY_FIELDS} } }`;
const REDELIVER = `mutation ($siteId: ID!, $endpointId: ID!, $id: ID!) { redeliverWebhookDelivery(siteId: $siteId, endpointId: $endpointId, id: $id) { ${DELIVERY_FIELDS} } }`;
const RECOVER = `mutation ($siteId: ID!, $id: ID!, $since: DateTime!) { recoverWebhookEndpoint(siteId: $siteId, id: $id, since: $since) { recovered endpoint { endpointId } } }`;
const ENDPOINTS = `query ($siteId: ID, $first: Int, $after: String) { webhookEndpoints(siteId: $siteId, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor startCursor hasPreviousPage } edges { cursor node { ${ENDPOINT_FIELDS} } } } }`;
const DELIVERIES = `query ($endpointId: ID!, $status: [WebhookDeliveryStatus!]) { webhookDeliveries(endpointId: $endpointId, status: $status) { totalCount edges { node { ${DELIVERY_FIELDS} } } } }`;
const NODE = 'query ($id: ID!) { node(id: $id) { __typename id ... on WebhookEndpoint { endpointId url } ... on WebhookDelivery { deliveryId eventType } } }';

let t: TestGateway;
let staff: { token: string };
/** A real endpoint on 127.0.0.1: the dispatcher delivers to it while the test runs. */
let receiver: Receiver;

const { ok } = staffRequests(() => t);

/** The site's endpoints as the site itself reads them over REST. */
async function restEndpoints(site: { id: string; apiKey: string }) {
  const res = await t.rest('GET', '/v1/webhooks/endpoints', undefined, platformHeaders(t, site));
  expect(res.status).toBe(200);
  return res.body.data as Array<Record<string, unknown>>;
}

async function created(siteId: string, input: Record<string, unknown> = {}) {
  return (await ok(CREATE, { siteId, input: { url: receiver.url, ...input } })).createWebhookEndpoint;
}

/**
 * The endpoint's deliveries once the dispatcher has attempted each of them (it runs beside the test; on the manual
 * clock a retry waits until the clock moves, so what is read then stays put).
 */
async function attempted(endpointId: string) {
  return eventually(async () => {
    const { webhookDeliveries } = await ok(DELIVERIES, { endpointId });
    const nodes = webhookDeliveries.edges.map((e: any) => e.node);
    return nodes.every((d: any) => d.attemptCount > 0) && nodes;
  });
}

/** What a delivery is, whatever the dispatcher has done with it since. */
const identity = (d: any) => ({ id: d.id, deliveryId: d.deliveryId, webhookId: d.webhookId, siteId: d.siteId, eventType: d.eventType, createdAt: d.createdAt, endpoint: d.endpoint });

describe('merchant webhooks over staff GraphQL', () => {
  beforeEach(async () => {
    t = await testGateway();
    staff = { token: t.adminToken };
    receiver = await startReceiver();
  });

  it('refuses every field to a caller without the staff token, and changes nothing', async () => {
    const merchant = await createMerchant(t);
    const { endpoint } = await created(merchant.id);
    const delivery = (await ok(TEST, { siteId: merchant.id, id: endpoint.id })).testWebhookEndpoint;
    await attempted(endpoint.id);
    const sent = receiver.requests.length;
    const operations: Array<[string, string, Record<string, unknown>]> = [
      ['webhookEndpoints', ENDPOINTS, {}],
      ['webhookDeliveries', DELIVERIES, { endpointId: endpoint.id }],
      ['createWebhookEndpoint', CREATE, { siteId: merchant.id, input: { url: 'https://evil.example' } }],
      ['updateWebhookEndpoint', UPDATE, { siteId: merchant.id, id: endpoint.id, input: { url: 'https://evil.example' } }],
      ['rotateWebhookSecret', ROTATE, { siteId: merchant.id, id: endpoint.id }],
      ['testWebhookEndpoint', TEST, { siteId: merchant.id, id: endpoint.id }],
      ['redeliverWebhookDelivery', REDELIVER, { siteId: merchant.id, endpointId: endpoint.id, id: delivery.id }],
      ['recoverWebhookEndpoint', RECOVER, { siteId: merchant.id, id: endpoint.id, since: '2026-11-01T00:00:00Z' }],
    ];
    const before = [await restEndpoints(merchant), await ok(DELIVERIES, { endpointId: endpoint.id })];
    for (const [field, query, variables] of operations) {
      for (const options of [{}, { token: 'wrong-token' }]) {
        const result = await t.gql(query, variables, options);
        expect(codeOf(result), field).toBe('UNAUTHORIZED');
        expect(result.errors![0]!.path).toEqual([field]);
        expect(result.data).toBeNull();
      }
    }
    for (const id of [endpoint.id, delivery.id]) expect(codeOf(await t.gql(NODE, { id }))).toBe('UNAUTHORIZED');
    expect([await restEndpoints(merchant), await ok(DELIVERIES, { endpointId: endpoint.id })]).toEqual(before);
    expect(receiver.requests).toHaveLength(sent);
  });

  it('creates, lists and updates endpoints of any site, naming the site; the secret only in the creation answer', async () => {
    const merchant = await createMerchant(t);
    const first = await created(merchant.id, { description: 'Orders', eventTypes: ['ORDER_STATUS_UPDATE', 'TOKEN_UPDATED'] });
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    expect(first.endpoint).toMatchObject({
      siteId: merchant.id,
      url: receiver.url,
      description: 'Orders',
      eventTypes: ['ORDER_STATUS_UPDATE', 'TOKEN_UPDATED'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
    });
    expect(first.endpoint.endpointId).toMatch(/^ep_/u);
    expect(first.endpoint.id).not.toBe(first.endpoint.endpointId);
    await t.clock.advance(1_000); // oldest first: a second later
    const own = await created(t.siteId, { url: 'https://bootstrap.example' });

    // The site sees the same endpoint over REST, with REST's words for the event types and no secret.
    const [rest] = await restEndpoints(merchant);
    expect(rest).toMatchObject({ id: first.endpoint.endpointId, eventTypes: ['orderstatusupdatenotification', 'token-updated'] });

    // Every site's, or one site's; paged forward.
    const all = (await ok(ENDPOINTS)).webhookEndpoints;
    expect(all.totalCount).toBe(2);
    expect(all.edges.map((e: any) => e.node.siteId)).toEqual([merchant.id, t.siteId]);
    expect(JSON.stringify(all)).not.toContain('whsec_');
    const page1 = (await ok(ENDPOINTS, { first: 1 })).webhookEndpoints;
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: page1.edges[0].cursor, endCursor: page1.edges[0].cursor });
    const page2 = (await ok(ENDPOINTS, { first: 1, after: page1.pageInfo.endCursor })).webhookEndpoints;
    expect(page2.edges.map((e: any) => e.node.id)).toEqual([own.endpoint.id]);
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const mine = (await ok(ENDPOINTS, { siteId: t.siteId })).webhookEndpoints;
    expect(mine.edges.map((e: any) => e.node.endpointId)).toEqual([own.endpoint.endpointId]);

    // node(id) answers the endpoint; the REST id is accepted where an endpoint is named.
    expect((await ok(NODE, { id: first.endpoint.id })).node).toEqual({ __typename: 'WebhookEndpoint', id: first.endpoint.id, endpointId: first.endpoint.endpointId, url: receiver.url });
    const updated = (await ok(UPDATE, { siteId: merchant.id, id: first.endpoint.endpointId, input: { eventTypes: [], enabled: false } })).updateWebhookEndpoint;
    expect(updated).toMatchObject({ id: first.endpoint.id, eventTypes: [], enabled: false, disabledReason: 'Disabled by the site.', description: 'Orders' });
    expect((await restEndpoints(merchant))[0]).toMatchObject({ eventTypes: [], enabled: false });
    const enabled = (await ok(UPDATE, { siteId: merchant.id, id: first.endpoint.id, input: { enabled: true, url: 'https://merchant.example/v2' } })).updateWebhookEndpoint;
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, url: 'https://merchant.example/v2' });
  });

  it('refuses another site, an unknown site, a made-up id and bad input, changing nothing', async () => {
    const merchant = await createMerchant(t);
    const { endpoint } = await created(merchant.id);
    const before = await restEndpoints(merchant);
    // Named for the wrong site: as if it did not exist.
    for (const [query, variables] of [
      [UPDATE, { siteId: t.siteId, id: endpoint.id, input: { url: 'https://evil.example' } }],
      [ROTATE, { siteId: t.siteId, id: endpoint.id }],
      [TEST, { siteId: t.siteId, id: endpoint.id }],
      [RECOVER, { siteId: t.siteId, id: endpoint.id, since: '2026-11-01T00:00:00Z' }],
    ] as const) {
      expect(codeOf(await t.gql(query, variables, staff))).toBe('NOT_FOUND');
    }
    const unknownSite = await t.gql(CREATE, { siteId: 'site_nobody', input: { url: 'https://a.example' } }, staff);
    expect(codeOf(unknownSite)).toBe('NOT_FOUND');
    expect(unknownSite.errors![0]!.extensions).toMatchObject({ field: 'siteId' });
    for (const id of ['not-an-id', Buffer.from('Order:1001').toString('base64')]) {
      expect(codeOf(await t.gql(ROTATE, { siteId: merchant.id, id }, staff))).toBe('VALIDATION_FAILED');
    }
    const badUrl = await t.gql(UPDATE, { siteId: merchant.id, id: endpoint.id, input: { url: 'ftp://merchant.example' } }, staff);
    expect(codeOf(badUrl)).toBe('VALIDATION_FAILED');
    expect(badUrl.errors![0]!.extensions).toMatchObject({ field: 'url' });
    // null is no filter to read as "every event type": refused as REST refuses it.
    const nullTypes = await t.gql(UPDATE, { siteId: merchant.id, id: endpoint.id, input: { eventTypes: null } }, staff);
    expect(codeOf(nullTypes)).toBe('BAD_REQUEST');
    expect(nullTypes.errors![0]!.extensions).toMatchObject({ field: 'eventTypes' });
    const future = await t.gql(RECOVER, { siteId: merchant.id, id: endpoint.id, since: new Date(t.clock.now() + 60_000).toISOString() }, staff);
    expect(codeOf(future)).toBe('VALIDATION_FAILED');
    expect(await restEndpoints(merchant)).toEqual(before);
    expect((await ok(ENDPOINTS)).webhookEndpoints.totalCount).toBe(1);
  });

  it('rotates (the new secret once, the old one signing for 24 hours), tests, redelivers and recovers', async () => {
    const merchant = await createMerchant(t);
    const { endpoint, secret } = await created(merchant.id);
    const rotated = (await ok(ROTATE, { siteId: merchant.id, id: endpoint.id })).rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_/u);
    expect(rotated.secret).not.toBe(secret);
    const overlapEnd = new Date(t.clock.now() + 24 * 3_600_000).toISOString();
    expect(rotated.previousSecretExpiresAt).toBe(overlapEnd);
    expect(rotated.endpoint.previousSecretExpiresAt).toBe(overlapEnd);

    const test = (await ok(TEST, { siteId: merchant.id, id: endpoint.id })).testWebhookEndpoint;
    expect(test).toMatchObject({ siteId: merchant.id, eventType: 'webhook-test', status: 'PENDING', endpoint: { endpointId: endpoint.endpointId } });
    expect(test.deliveryId).toMatch(/^dlv_/u);
    expect(test.webhookId).toMatch(/^msg_/u);
    const [listed] = await attempted(endpoint.id);
    expect(identity(listed)).toEqual(identity(test));
    expect(listed.attempts[0]).toMatchObject({ attempt: 1 });
    // The status filter: the delivery under its own status, and under no other.
    expect((await ok(DELIVERIES, { endpointId: endpoint.id, status: [listed.status] })).webhookDeliveries.totalCount).toBe(1);
    const others = ['PENDING', 'DELIVERED', 'FAILED', 'DROPPED'].filter((s) => s !== listed.status);
    expect((await ok(DELIVERIES, { endpointId: endpoint.endpointId, status: others })).webhookDeliveries.totalCount).toBe(0);
    expect((await ok(NODE, { id: test.id })).node).toEqual({ __typename: 'WebhookDelivery', id: test.id, deliveryId: test.deliveryId, eventType: 'webhook-test' });

    const again = (await ok(REDELIVER, { siteId: merchant.id, endpointId: endpoint.id, id: test.deliveryId })).redeliverWebhookDelivery;
    expect(again).toMatchObject({ id: test.id, webhookId: test.webhookId, status: 'PENDING' });
    // Due again at once: the dispatcher attempts it a second time, with the same webhook-id.
    await eventually(async () => (await ok(DELIVERIES, { endpointId: endpoint.id })).webhookDeliveries.edges[0].node.attemptCount === 2);
    expect(codeOf(await t.gql(REDELIVER, { siteId: t.siteId, endpointId: endpoint.id, id: test.id }, staff))).toBe('NOT_FOUND');
    const recovered = (await ok(RECOVER, { siteId: merchant.id, id: endpoint.id, since: '2026-11-01T00:00:00Z' })).recoverWebhookEndpoint;
    expect(recovered).toEqual({ recovered: 0, endpoint: { endpointId: endpoint.endpointId } });
    // Nothing but the two answers above ever carried a secret.
    const everything = JSON.stringify([await ok(ENDPOINTS), await ok(DELIVERIES, { endpointId: endpoint.id }), test, again, recovered]);
    expect(everything).not.toContain('whsec_');
  });
});

describe('the webhookDeliveries subscription', () => {
  it('streams each delivery change to staff, filtered by endpoint, and refuses anyone else', async () => {
    const live = await liveServer();
    t = live;
    staff = { token: live.adminToken };
    receiver = await startReceiver();
    const merchant = await createMerchant(live);
    const { endpoint } = await created(merchant.id);
    const other = (await created(live.siteId)).endpoint;

    const anonymous = subscribe(live.client(), 'subscription { webhookDeliveries { id } }');
    expect(await anonymous.failed).toMatchObject([{ extensions: { code: 'UNAUTHORIZED' } }]);
    const ofEndpoint = subscribe(live.client(`Bearer ${live.adminToken}`), `subscription ($e: ID) { webhookDeliveries(endpointId: $e) { ${DELIVERY_FIELDS} } }`, { e: endpoint.id });
    const ofAll = subscribe(live.client(`Bearer ${live.adminToken}`), 'subscription { webhookDeliveries { deliveryId siteId status } }');
    await subscriptionsOpen(live.server.url, 'webhookDeliveries', 2);
    // With Redis the topic's SUBSCRIBE is sent, not awaited, when the first stream starts: another endpoint's
    // delivery, seen, shows the topic is live for both streams before the one they must see.
    const elsewhere = (await ok(TEST, { siteId: live.siteId, id: other.id })).testWebhookEndpoint;
    await eventually(() => ofAll.all.some((m: any) => m.webhookDeliveries.deliveryId === elsewhere.deliveryId));
    const test = (await ok(TEST, { siteId: merchant.id, id: endpoint.id })).testWebhookEndpoint;
    // Queued, then each attempt: the endpoint's stream sees its own delivery only. Each event carries ids and the
    // delivery is read when the event is handled (endpoint-service.ts deliveryEvents), so the queueing's event may
    // already show the attempt that followed it on a loaded machine (PostgreSQL in the full suite): not PENDING.
    const first = (await ofEndpoint.next()).webhookDeliveries;
    expect(identity(first)).toEqual(identity(test));
    expect(['PENDING', 'DELIVERED']).toContain(first.status);
    const attemptedOnce = async () => {
      for (let next = first; ; next = (await ofEndpoint.next()).webhookDeliveries) if (next.attemptCount > 0) return next;
    };
    expect(identity(await attemptedOnce())).toEqual(identity(test));
    // Every site's stream sees both deliveries.
    await eventually(() => [elsewhere.deliveryId, test.deliveryId].every((id) => ofAll.all.some((m: any) => m.webhookDeliveries.deliveryId === id)));
    expect(new Set(ofEndpoint.all.map((m: any) => m.webhookDeliveries.deliveryId))).toEqual(new Set([test.deliveryId]));
  });
});

describe('the webhookEndpointDisabled subscription', () => {
  it('tells staff at once when a 410 Gone disables an endpoint, and refuses anyone else', async () => {
    const live = await liveServer();
    t = live;
    staff = { token: live.adminToken };
    receiver = await startReceiver();
    const merchant = await createMerchant(live);
    const { endpoint } = await created(merchant.id);

    const anonymous = subscribe(live.client(), 'subscription { webhookEndpointDisabled { endpointId } }');
    expect(await anonymous.failed).toMatchObject([{ extensions: { code: 'UNAUTHORIZED' } }]);
    const notices = subscribe(live.client(`Bearer ${live.adminToken}`), `subscription { webhookEndpointDisabled { endpointId siteId url reason at endpoint { ${ENDPOINT_FIELDS} } } }`);
    await subscriptionsOpen(live.server.url, 'webhookEndpointDisabled', 1);

    receiver.failNext(1, { status: 410, body: 'gone' });
    await ok(TEST, { siteId: merchant.id, id: endpoint.id });
    const notice = (await notices.next()).webhookEndpointDisabled;
    expect(notice).toMatchObject({ endpointId: endpoint.endpointId, siteId: merchant.id, url: receiver.url, reason: 'The endpoint answered 410 Gone.' });
    expect(notice.endpoint).toMatchObject({ id: endpoint.id, enabled: false, disabledReason: 'The endpoint answered 410 Gone.' });
    expect(JSON.stringify(notice)).not.toContain('whsec_');
  });
});
