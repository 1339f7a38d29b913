/**
 * One record of every type that has a global id (docs/graphql.md#object-identity), made through the doors their
 * users call (REST for orders, payments, the vault and the platform; GraphQL for staff), and the ids GraphQL gives
 * them. Shared by test/graphql/node-identity.test.ts and node-authorization.test.ts.
 */
import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.ts';
import { call, createMerchant, decide, itemListing, profileAccess } from '../platform/support.ts';

export interface Records {
  orderNumber: string;
  payToken: string;
  paymentId: string;
  vaultToken: string;
  merchant: { id: string; apiKey: string };
  /** What decideOrder answered, every field: the only field that shows an OrderDecision. */
  decision: Record<string, unknown>;
  /** typename → the id GraphQL gave the record of that type. */
  ids: Record<string, string>;
}

/** The types `node` fetches: every type that has an id. */
export const FETCHABLE = [
  'Order',
  'Payment',
  'Merchant',
  'ThreeDsEnrollment',
  'Account',
  'AccountRequest',
  'ItemListingRequest',
  'Claim',
  'Notification',
  'TokenInfo',
  'OrderDecision',
];

export async function staffData(t: TestGateway, query: string, variables: Record<string, unknown> = {}) {
  const result = await t.gql(query, variables, { token: t.adminToken });
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data;
}

export const DECISION_FIELDS = 'id orderId target action triggeredBy comments decidedAt';

const IDS = /* GraphQL */ `
  query Ids($n: ID!, $t: String!, $pay: ID!, $tok: String!, $m: ID!, $site: String!) {
    order(orderNumber: $n, payToken: $t) { id }
    payment(id: $pay) { id }
    token(token: $tok) { id }
    merchant(id: $m) { id threeDsEnrollments { id } }
    account(accountId: "acct-1", siteId: $site) { id decisions { id } }
    itemListingRequests { id }
    claims { edges { node { id } } }
    notifications(first: 1) { edges { node { id } } }
  }
`;

export async function makeRecords(t: TestGateway): Promise<Records> {
  const { orderNumber, payToken } = await t.createOrder();
  const site = { authorization: t.siteAuthorization };
  const card = { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' };
  const paid = await t.rest('POST', '/api/payments', { orderId: 'shop-1', amount: 1999, currency: 'USD', paymentMethod: { type: 'card', card } }, site);
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const tokenized = await t.rest('POST', '/v1/tokenization/tokenize', { cardNumber: card.number, expirationMonth: 12, expirationYear: 2030, cardHolderName: 'Ada Lovelace' }, site);
  expect(tokenized.status, JSON.stringify(tokenized.body)).toBe(200);
  const merchant = await createMerchant(t);
  const enrolled = await call(t, 'POST', `/merchants/${merchant.id}/3ds-recommendation`, { offerings: { psd2: true } });
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
  await decide(t, 'profile-access', 'evt-1', profileAccess());
  await decide(t, 'item-listing', 'lst-1', itemListing({ accountData: { emailsInAccount: [{ email: 'review@vendor.test' }] } }));
  await staffData(
    t,
    `mutation ($n: ID!, $due: String!) {
      openClaim(input: { orderId: $n, claimType: CHARGEBACK, amount: 1, currency: "USD", dueDate: $due, requestedEvidenceTypes: ["INVOICE"] }) { claimId }
    }`,
    { n: orderNumber, due: new Date(t.clock.now() + 10 * 86_400_000).toISOString().slice(0, 10) },
  );
  const decided = await staffData(t, `mutation ($id: ID!) { decideOrder(orderId: $id, action: RELEASE, triggeredBy: "ops@sleeve.test") { ${DECISION_FIELDS} } }`, {
    id: paid.body.id,
  });

  const found = await staffData(t, IDS, { n: orderNumber, t: payToken, pay: paid.body.id, tok: tokenized.body.token, m: merchant.id, site: t.siteId });
  const ids: Record<string, string> = {
    Order: found.order.id,
    Payment: found.payment.id,
    TokenInfo: found.token.id,
    Merchant: found.merchant.id,
    ThreeDsEnrollment: found.merchant.threeDsEnrollments[0].id,
    Account: found.account.id,
    AccountRequest: found.account.decisions[0].id,
    ItemListingRequest: found.itemListingRequests[0].id,
    Claim: found.claims.edges[0].node.id,
    Notification: found.notifications.edges[0].node.id,
    OrderDecision: decided.decideOrder.id,
  };
  return { orderNumber, payToken, paymentId: paid.body.id, vaultToken: tokenized.body.token, merchant, decision: decided.decideOrder, ids };
}
