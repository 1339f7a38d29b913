/**
 * Object identity (docs/graphql.md#object-identity), over both transports: every object with an identity has an
 * `id: ID!` that is unique across types, stable, and carries no credential; staff fetch every one of them again
 * with node/nodes, as the type's own field shows it; the connections are Relay connections; Order has document 1's `ok` and `duplicate`.
 * Who else may fetch what is node-authorization.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS, type TransportGateway } from '../support/graphql-transports.ts';
import { DECISION_FIELDS, FETCHABLE, makeRecords, staffData, type Records } from './node-records.ts';

let t: TransportGateway;
let records: Records;

const NODE = 'query ($id: ID!) { node(id: $id) { __typename id } }';
const decoded = (id: string) => Buffer.from(id, 'base64').toString('utf8');

describe.each(TRANSPORTS)('over %s', (transport) => {
  beforeEach(async () => {
    t = await gatewayOver(transport);
    records = await makeRecords(t);
  });

  it('gives every object with an identity an id, unique across all types', () => {
    const ids = Object.values(records.ids);
    expect(Object.keys(records.ids).sort()).toEqual([...FETCHABLE].sort());
    for (const id of ids) expect(id).toMatch(/^\S{4,}$/u);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the ids payments, notifications and merchants already had; names every other one by its type', () => {
    expect(records.ids.Payment).toBe(records.paymentId);
    expect(records.ids.Merchant).toBe(records.merchant.id);
    expect(records.ids.Notification).toMatch(/^msg_/u);
    expect(decoded(records.ids.Order!)).toBe(`Order:${records.orderNumber}`);
    expect(decoded(records.ids.Account!)).toBe(`Account:${JSON.stringify([t.siteId, 'acct-1'])}`);
    for (const type of ['ThreeDsEnrollment', 'AccountRequest', 'ItemListingRequest', 'Claim', 'TokenInfo', 'OrderDecision']) {
      expect(decoded(records.ids[type]!).startsWith(`${type}:`), type).toBe(true);
    }
  });

  it('never puts a payToken, vault token or key into an id', () => {
    const secrets = [records.payToken, records.vaultToken, records.merchant.apiKey, 'test-api-key', t.adminToken];
    for (const id of Object.values(records.ids)) {
      for (const secret of secrets) {
        expect(id).not.toContain(secret);
        expect(decoded(id)).not.toContain(secret);
      }
    }
  });

  it('gives the same id on every read, by whichever field the object comes', async () => {
    const again = await makeRecordsIds();
    expect(again.order).toBe(records.ids.Order);
    expect(again.advanced).toBe(records.ids.Order);
    expect(again.listed).toBe(records.ids.Order);
    expect(again.duplicateOf).toBe(records.ids.Order);
  });

  it('fetches every type with an id again for staff with node, with the same id and type', async () => {
    for (const type of FETCHABLE) {
      const { node } = await staffData(t, NODE, { id: records.ids[type] });
      expect(node, type).toEqual({ __typename: type, id: records.ids[type] });
    }
  });

  it('fetches them all at once with nodes, in the order asked, an unknown one as null', async () => {
    const unknown = Buffer.from('Claim:987654').toString('base64');
    const ids = [...FETCHABLE.map((type) => records.ids[type]!), unknown, records.ids.Order!];
    const { nodes } = await staffData(t, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
    expect(nodes).toEqual([...FETCHABLE.map((type) => ({ __typename: type, id: records.ids[type] })), null, { __typename: 'Order', id: records.ids.Order }]);
  });

  it("answers a node with its type's own fields and rules: staff see an order's staff fields", async () => {
    const { node } = await staffData(t, 'query ($id: ID!) { node(id: $id) { ... on Order { orderNumber status email ok duplicate } } }', {
      id: records.ids.Order,
    });
    expect(node).toEqual({ orderNumber: records.orderNumber, status: 'AWAITING_PAYMENT', email: VALID_ORDER.email, ok: true, duplicate: false });
    const account = await staffData(t, 'query ($id: ID!) { node(id: $id) { ... on Account { accountId siteId decisions { eventId } } } }', {
      id: records.ids.Account,
    });
    expect(account.node).toEqual({ accountId: 'acct-1', siteId: t.siteId, decisions: [{ eventId: 'evt-1' }] });
  });

  it('answers a Notification, a TokenInfo and an OrderDecision by id as their own fields show them', async () => {
    // Read in one operation with the notifications list: the dispatcher may be sending it meanwhile.
    const NOTIFICATION = 'id type path body subject createdAt';
    const notification = await staffData(
      t,
      `query ($id: ID!) { notifications(first: 1) { edges { node { ${NOTIFICATION} } } } node(id: $id) { ... on Notification { ${NOTIFICATION} } } }`,
      { id: records.ids.Notification },
    );
    expect(notification.node).toEqual(notification.notifications.edges[0].node);
    expect(notification.node.id).toMatch(/^msg_/u);

    const TOKEN = 'id kind bin lastFourDigits cardBrand expirationMonth expirationYear cardHolderName multiUse used networkTokenStatus aliases { key value } orderNumber createdAt';
    const token = await staffData(t, `query ($tok: String!, $id: ID!) { token(token: $tok) { ${TOKEN} } node(id: $id) { ... on TokenInfo { ${TOKEN} } } }`, {
      tok: records.vaultToken,
      id: records.ids.TokenInfo,
    });
    expect(token.node).toEqual(token.token);
    expect(token.node).toMatchObject({ id: records.ids.TokenInfo, lastFourDigits: '4242', cardHolderName: 'Ada Lovelace' });
    // Fetched by its hash, the token itself still appears nowhere in the answer.
    expect(JSON.stringify(token.node)).not.toContain(records.vaultToken);

    const decision = await staffData(t, `query ($id: ID!) { node(id: $id) { ... on OrderDecision { ${DECISION_FIELDS} } } }`, { id: records.ids.OrderDecision });
    expect(decision.node).toEqual(records.decision);
    expect(decision.node).toMatchObject({ orderId: records.paymentId, target: 'PAYMENT', action: 'RELEASE', triggeredBy: 'ops@sleeve.test' });
    // A decision on a sleeve order is found by its order number, as one on a payment by the payment id.
    const onOrder = await staffData(t, `mutation ($n: ID!) { decideOrder(orderId: $n, action: CANCEL, triggeredBy: "ops@sleeve.test", comments: "Duplicate.") { ${DECISION_FIELDS} } }`, {
      n: records.orderNumber,
    });
    const again = await staffData(t, `query ($id: ID!) { node(id: $id) { ... on OrderDecision { ${DECISION_FIELDS} } } }`, { id: onOrder.decideOrder.id });
    expect(again.node).toEqual(onOrder.decideOrder);
    expect(again.node).toMatchObject({ orderId: records.orderNumber, target: 'SLEEVE_ORDER', action: 'CANCEL', comments: 'Duplicate.' });
  });

  it('pages orders, claims and notifications as Relay connections (edges, node, cursor, the four pageInfo fields)', async () => {
    await t.createOrder({ email: 'second@example.com' });
    const page = `{ pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } }`;
    const data = await staffData(t, `{ orders(first: 1) ${page} claims(first: 5) ${page} notifications(first: 50) ${page} }`);
    for (const name of ['orders', 'claims', 'notifications']) {
      const { pageInfo, edges } = data[name];
      expect(edges.length, name).toBeGreaterThan(0);
      expect(pageInfo, name).toEqual({
        hasNextPage: name === 'orders',
        hasPreviousPage: false,
        startCursor: edges[0].cursor,
        endCursor: edges.at(-1).cursor,
      });
    }
    expect(data.orders.edges[0].node.id).toBe(records.ids.Order);
  });

  it("answers document 1's ok (true) and duplicate (false) on every Order", async () => {
    const created = await t.gql('mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { ok duplicate } } }', {
      input: { ...VALID_ORDER, email: 'third@example.com' },
    });
    expect(created.data.createOrder).toEqual({ ok: true, duplicate: false });
    const lookup = await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { ok duplicate } }', {
      n: records.orderNumber,
      t: records.payToken,
    });
    expect(lookup.data.order).toEqual({ ok: true, duplicate: false });
  });
});

/** The order's id as the lookup, a staff move, the staff list and a duplicate create each give it. */
async function makeRecordsIds() {
  const vars = { n: records.orderNumber, t: records.payToken };
  const order = (await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { id } }', vars)).data.order.id;
  const duplicate = await t.gql(
    'mutation ($input: OrderInput!) { createOrder(input: $input) { ... on ApiError { code order { id ok duplicate } } } }',
    { input: VALID_ORDER },
  );
  expect(duplicate.data.createOrder).toMatchObject({ code: 'DUPLICATE', order: { ok: true, duplicate: false } });
  await t.rest('POST', `/api/orders/${records.orderNumber}/pay`, { t: records.payToken, method: 'vendor_card' });
  const moved = await staffData(t, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { id } }', { n: records.orderNumber });
  const listed = await staffData(t, '{ orders(first: 1) { edges { node { id } } } }');
  return { order, advanced: moved.advanceOrder.id, listed: listed.orders.edges[0].node.id, duplicateOf: duplicate.data.createOrder.order.id };
}
