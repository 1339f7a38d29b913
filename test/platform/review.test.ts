/**
 * Staff review over GraphQL (docs/notifications.md#triggers): reviewAccount, decideItemListing, decideOrder and the queries
 * merchant, account, itemListingRequests; each decision queues its document 2 notification with the change.
 */
import { describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { call, createMerchant, decide, EVENT_TIME, itemListing, outbox, profileAccess } from './support.ts';

const staff = (t: TestGateway, query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, { token: t.adminToken });

const REVIEW = `mutation($id: ID!, $decision: AccountDecision!, $reasons: [String!], $recs: [String!]) {
  reviewAccount(accountId: $id, decision: $decision, reasons: $reasons, recommendations: $recs) { accountId status reasons recommendations }
}`;
const DECIDE_LISTING = `mutation($id: ID!, $action: MerchantAction!, $by: String!, $comments: String) {
  decideItemListing(eventId: $id, action: $action, triggeredBy: $by, comments: $comments) { eventId accountId correlationId reviewStatus reviewedBy reviewComments }
}`;
const DECIDE_ORDER = `mutation($id: ID!, $action: MerchantAction!, $by: String!, $comments: String) {
  decideOrder(orderId: $id, action: $action, triggeredBy: $by, comments: $comments) { orderId target action triggeredBy comments }
}`;

/** Document 3 §2 payment creation request, with a sandbox card that succeeds (docs/platform.md#sandbox-processor). */
const PAYMENT = {
  orderId: 'shop-order-1',
  amount: 4500,
  currency: 'USD',
  captureMethod: 'automatic',
  channel: 'web',
  customer: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
  paymentMethod: { type: 'card', card: { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' } },
};

const codeOf = (result: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => result.errors?.[0]?.extensions?.code;

describe('staff review', () => {
  it('every platform field is staff only', async () => {
    const t = await testGateway();
    for (const query of ['{ merchant(id: "x") { id } }', '{ account(accountId: "x") { status } }', '{ itemListingRequests { eventId } }']) {
      expect(codeOf(await t.gql(query))).toBe('UNAUTHORIZED');
    }
    expect(codeOf(await t.gql(REVIEW, { id: 'x', decision: 'ACTIVATE' }))).toBe('UNAUTHORIZED');
    expect(codeOf(await t.gql(DECIDE_ORDER, { id: '1001', action: 'RELEASE', by: 'a@b.c' }))).toBe('UNAUTHORIZED');
  });

  it('account shows the status and the decision history with the rules that fired', async () => {
    const t = await testGateway();
    await decide(t, 'profile-access', 'h-1', profileAccess());
    await decide(t, 'profile-access', 'h-2', profileAccess({ eventTime: EVENT_TIME + 60_000, accountOwner: { email: 'q@mailinator.com' } }));
    const res = await staff(t, '{ account(accountId: "acct-1") { status reasons decisions { eventId kind vendorDecision reasonCodes firedRules { id reasonCode outcome explanation } } } }');
    expect(res.data.account).toEqual({
      status: 'DEACTIVATE',
      reasons: ['DISPOSABLE_EMAIL_DOMAIN'],
      decisions: [
        { eventId: 'h-1', kind: 'PROFILE_ACCESS', vendorDecision: 'APPROVE', reasonCodes: [], firedRules: [] },
        {
          eventId: 'h-2',
          kind: 'PROFILE_ACCESS',
          vendorDecision: 'DECLINE',
          reasonCodes: ['DISPOSABLE_EMAIL_DOMAIN'],
          firedRules: [{ id: 'disposable-email', reasonCode: 'DISPOSABLE_EMAIL_DOMAIN', outcome: 'DECLINE', explanation: 'mailinator.com is a disposable mailbox domain.' }],
        },
      ],
    });
    expect((await staff(t, '{ account(accountId: "nobody") { status } }')).data.account).toBeNull();
  });

  describe('reviewAccount', () => {
    it('sets any of the six statuses, notifying only when the status changes', async () => {
      const t = await testGateway();
      await decide(t, 'profile-access', 'a-1', profileAccess({ accountOwner: { email: 'review@vendor.test' } }));
      expect(await outbox(t, '/accountupdatenotification')).toHaveLength(1);
      await t.clock.advance(1_000);

      const res = await staff(t, REVIEW, { id: 'acct-1', decision: 'RESTRICT_POLICY', reasons: ['manual review'], recs: ['ID_VERIFICATION'] });
      expect(res.data.reviewAccount).toEqual({ accountId: 'acct-1', status: 'RESTRICT_POLICY', reasons: ['manual review'], recommendations: ['ID_VERIFICATION'] });
      const queued = await outbox(t, '/accountupdatenotification');
      expect(queued).toHaveLength(2);
      expect(queued[1]!.body).toEqual({
        timestamp: Math.floor(t.clock.now() / 1000),
        type: 'VENDOR_ACCOUNT_STATUS_UPDATE',
        accountId: 'acct-1',
        vendorDecision: 'RESTRICT_POLICY',
        reasons: ['manual review'],
        recommendations: ['ID_VERIFICATION'],
        linkToAccountInDashboard: 'http://sleeve.test/staff#/accounts/acct-1?site=site_test',
      });

      const restated = await staff(t, REVIEW, { id: 'acct-1', decision: 'RESTRICT_POLICY', reasons: ['still'] });
      expect(restated.data.reviewAccount).toMatchObject({ status: 'RESTRICT_POLICY', reasons: ['still'] });
      expect(await outbox(t, '/accountupdatenotification')).toHaveLength(2);
      for (const decision of ['ENABLE_POLICY', 'ACTIVATE', 'DEACTIVATE', 'VERIFICATION_REQUIRED', 'NOT_REVIEWED']) {
        expect((await staff(t, REVIEW, { id: 'acct-1', decision })).data.reviewAccount.status).toBe(decision);
      }
      expect(await outbox(t, '/accountupdatenotification')).toHaveLength(7);
    });

    it('NOT_FOUND for an account the platform never decided; VALIDATION_FAILED for empty or over-long labels', async () => {
      const t = await testGateway();
      expect(codeOf(await staff(t, REVIEW, { id: 'ghost', decision: 'ACTIVATE' }))).toBe('NOT_FOUND');
      await decide(t, 'profile-access', 'l-1', profileAccess({ accountId: 'ghost' }));
      const before = await outbox(t, '/accountupdatenotification');
      const empty = await staff(t, REVIEW, { id: 'ghost', decision: 'DEACTIVATE', reasons: [' '] });
      expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'reasons' });
      const long = await staff(t, REVIEW, { id: 'ghost', decision: 'DEACTIVATE', recs: ['r'.repeat(101)] });
      expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'recommendations' });
      expect(await outbox(t, '/accountupdatenotification')).toEqual(before);
      const fine = await staff(t, REVIEW, { id: 'ghost', decision: 'DEACTIVATE', reasons: ['r'.repeat(100)] });
      expect(fine.data.reviewAccount.status).toBe('DEACTIVATE');
    });
  });

  describe('decideItemListing', () => {
    it('decides a queued listing once, with the item listing update notification', async () => {
      const t = await testGateway();
      const decision = await decide(t, 'item-listing', 'lst-9', itemListing({ accountData: { emailsInAccount: [{ email: 'review@vendor.test' }] } }));
      const res = await staff(t, DECIDE_LISTING, { id: 'lst-9', action: 'RELEASE', by: 'ops@sleeve.test', comments: 'Looks fine' });
      expect(res.data.decideItemListing).toEqual({
        eventId: 'lst-9',
        accountId: 'seller-1',
        correlationId: decision.correlationId,
        reviewStatus: 'RELEASED',
        reviewedBy: 'ops@sleeve.test',
        reviewComments: 'Looks fine',
      });
      const [sent, ...more] = await outbox(t, '/itemlistingrequestupdatenotification');
      expect(more).toEqual([]);
      expect(sent!.body).toEqual({
        timestamp: String(t.clock.now()),
        type: 'ITEM_LISTING_REQUEST_UPDATE',
        accountId: 'seller-1',
        eventId: 'lst-9',
        correlationId: decision.correlationId,
        merchantAction: 'RELEASE',
        triggeredBy: 'ops@sleeve.test',
        agentComments: 'Looks fine',
        linkToEventInVendorDashboard: 'http://sleeve.test/staff#/item-listings/lst-9?site=site_test',
      });
      expect((await staff(t, '{ itemListingRequests { eventId } }')).data.itemListingRequests).toEqual([]);
      expect((await staff(t, '{ itemListingRequests(status: RELEASED) { eventId } }')).data.itemListingRequests).toEqual([{ eventId: 'lst-9' }]);

      expect(codeOf(await staff(t, DECIDE_LISTING, { id: 'lst-9', action: 'CANCEL', by: 'ops@sleeve.test' }))).toBe('DUPLICATE');
      expect(await outbox(t, '/itemlistingrequestupdatenotification')).toHaveLength(1);
    });

    it('NOT_FOUND for an unknown event id; VALIDATION_FAILED past 75 or 255 characters, sending nothing', async () => {
      const t = await testGateway();
      await decide(t, 'item-listing', 'lst-1', itemListing());
      expect(codeOf(await staff(t, DECIDE_LISTING, { id: 'nope', action: 'RELEASE', by: 'ops@sleeve.test' }))).toBe('NOT_FOUND');
      const longBy = await staff(t, DECIDE_LISTING, { id: 'lst-1', action: 'RELEASE', by: `${'a'.repeat(64)}@sleeve.test` });
      expect(longBy.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'triggeredBy' });
      const longComments = await staff(t, DECIDE_LISTING, { id: 'lst-1', action: 'RELEASE', by: 'ops@sleeve.test', comments: 'c'.repeat(256) });
      expect(longComments.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'comments' });
      expect(await outbox(t, '/itemlistingrequestupdatenotification')).toEqual([]);
      const atLimits = await staff(t, DECIDE_LISTING, { id: 'lst-1', action: 'CANCEL', by: `${'a'.repeat(63)}@sleeve.test`, comments: 'c'.repeat(255) });
      expect(atLimits.data.decideItemListing.reviewStatus).toBe('CANCELLED');
    });
  });

  describe('decideOrder', () => {
    it('RELEASE records the decision on a sleeve order and queues the order status update', async () => {
      const t = await testGateway();
      const { orderNumber } = await t.createOrder();
      const res = await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'RELEASE', by: 'ops@sleeve.test' });
      expect(res.data.decideOrder).toEqual({ orderId: orderNumber, target: 'SLEEVE_ORDER', action: 'RELEASE', triggeredBy: 'ops@sleeve.test', comments: null });
      const [sent, ...more] = await outbox(t, '/orderstatusupdatenotification');
      expect(more).toEqual([]);
      expect(sent!.body).toEqual({
        timestamp: Math.floor(t.clock.now() / 1000),
        type: 'ORDER_STATUS_UPDATE',
        orderId: orderNumber,
        merchantAction: 'RELEASE',
        triggeredBy: 'ops@sleeve.test',
        linkToOrderInDashboard: `http://sleeve.test/staff#/orders/${orderNumber}`,
      });
      expect(codeOf(await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'CANCEL', by: 'ops@sleeve.test' }))).toBe('DUPLICATE');
      expect(await outbox(t, '/orderstatusupdatenotification')).toHaveLength(1);
    });

    it('CANCEL cancels the sleeve order through the staff service, with the comments as its reason', async () => {
      const t = await testGateway();
      const { orderNumber } = await t.createOrder();
      const res = await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'CANCEL', by: 'ops@sleeve.test', comments: 'Stolen card' });
      expect(res.data.decideOrder).toMatchObject({ action: 'CANCEL', comments: 'Stolen card' });
      const orders = await staff(t, '{ orders { edges { node { orderNumber status cancelReason } } } }');
      expect(orders.data.orders.edges[0].node).toEqual({ orderNumber, status: 'CANCELLED', cancelReason: 'Stolen card' });
      expect((await outbox(t, '/orderstatusupdatenotification'))[0]!.body).toMatchObject({ merchantAction: 'CANCEL', agentComments: 'Stolen card' });
    });

    it('decides a payment by its id', async () => {
      const t = await testGateway();
      const created = await t.rest('POST', '/api/payments', PAYMENT, { authorization: t.siteAuthorization, 'idempotency-key': 'review-1' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const paymentId = created.body.id as string;
      const res = await staff(t, DECIDE_ORDER, { id: paymentId, action: 'CANCEL', by: 'ops@sleeve.test' });
      expect(res.data.decideOrder).toMatchObject({ orderId: paymentId, target: 'PAYMENT', action: 'CANCEL' });
      expect((await outbox(t, '/orderstatusupdatenotification'))[0]!.body).toMatchObject({ orderId: paymentId, merchantAction: 'CANCEL' });
      expect(codeOf(await staff(t, DECIDE_ORDER, { id: paymentId, action: 'RELEASE', by: 'ops@sleeve.test' }))).toBe('DUPLICATE');
    });

    it('refuses unknown orders, a RELEASE of a cancelled order and over-long fields, sending nothing', async () => {
      const t = await testGateway();
      expect(codeOf(await staff(t, DECIDE_ORDER, { id: '999999', action: 'RELEASE', by: 'ops@sleeve.test' }))).toBe('NOT_FOUND');
      expect(codeOf(await staff(t, DECIDE_ORDER, { id: 'pay_unknown', action: 'RELEASE', by: 'ops@sleeve.test' }))).toBe('NOT_FOUND');
      const { orderNumber } = await t.createOrder();
      const long = await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'CANCEL', by: 'x'.repeat(76) });
      expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'triggeredBy' });
      const blank = await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'CANCEL', by: '   ' });
      expect(blank.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'triggeredBy' });
      await staff(t, `mutation { cancelOrder(orderNumber: "${orderNumber}", reason: "customer asked") { status } }`);
      const release = await staff(t, DECIDE_ORDER, { id: orderNumber, action: 'RELEASE', by: 'ops@sleeve.test' });
      expect(release.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'action' });
      expect(await outbox(t, '/orderstatusupdatenotification')).toEqual([]);
    });
  });

  it('merchant shows its fields and 3DS enrollments; null when unknown', async () => {
    const t = await testGateway();
    const { id } = await createMerchant(t);
    await call(t, 'POST', `/merchants/${id}/3ds-recommendation`, { offerings: { jp_regulation: { enabled: true } } });
    await t.clock.advance(10_000);
    const res = await staff(t, 'query($id: ID!) { merchant(id: $id) { name threeDsEnrollments { status reason } } }', { id });
    expect(res.data.merchant).toEqual({ name: 'Corner Shop', threeDsEnrollments: [{ status: 'FAILED', reason: expect.stringMatching(/acquirer_settings/u) }] });
    expect((await staff(t, '{ merchant(id: "site_nobody") { id } }')).data.merchant).toBeNull();
  });
});
