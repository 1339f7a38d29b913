/**
 * Who may fetch what by id (docs/graphql.md#object-identity), over both transports: `node` and `nodes` answer each
 * caller exactly what the type's own field would. An Order: staff only, null for anyone else (as `order` with a
 * wrong payToken), because an id is no credential. Every staff type: UNAUTHORIZED without the staff token, decided
 * before the id's key is read. Ids this API never gave out get a clear VALIDATION_FAILED, each at its own item.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayOver, TRANSPORTS, type TransportGateway } from '../support/graphql-transports.ts';
import { FETCHABLE, makeRecords, staffData, type Records } from './node-records.ts';

let t: TransportGateway;
let records: Records;

const NODE = 'query ($id: ID!) { node(id: $id) { __typename id } }';
const NODES = 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }';
const STAFF_TYPES = FETCHABLE.filter((type) => type !== 'Order');
const NOT_STAFF = [{}, { token: 'wrong-token' }];

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
/** Ids of the right form whose object does not exist. */
const UNKNOWN = {
  Notification: 'msg_00000000-0000-0000-0000-000000000000',
  TokenInfo: b64(`TokenInfo:${'0'.repeat(64)}`),
  OrderDecision: b64('OrderDecision:pay_00000000-0000-0000-0000-000000000000'),
};
/** Ids of these types whose key has a shape this API never gives out. */
const MALFORMED = {
  Notification: 'msg_not an id',
  TokenInfo: b64(`TokenInfo:${'A'.repeat(64)}`),
  OrderDecision: b64('OrderDecision:not-an-order'),
};

const codes = (errors: Array<{ extensions?: Record<string, unknown> }> | undefined) => (errors ?? []).map((e) => e.extensions?.code);

describe.each(TRANSPORTS)('over %s', (transport) => {
  beforeEach(async () => {
    t = await gatewayOver(transport);
    records = await makeRecords(t);
  });

  it('an Order by id: staff get it; anyone else gets null and no error, like order() with a wrong payToken', async () => {
    expect((await staffData(t, NODE, { id: records.ids.Order })).node).toEqual({ __typename: 'Order', id: records.ids.Order });
    for (const caller of NOT_STAFF) {
      const result = await t.gql(NODE, { id: records.ids.Order }, caller);
      expect(result).toMatchObject({ status: 200, data: { node: null } });
      expect(result.errors).toBeUndefined();
      // The same answer as for an order that does not exist: the id tells nothing about the order.
      const unknown = await t.gql(NODE, { id: Buffer.from('Order:999999').toString('base64') }, caller);
      expect(unknown).toEqual(result);
    }
    // The payToken holder keeps their own field, which the id does not replace.
    const own = await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { id status } }', {
      n: records.orderNumber,
      t: records.payToken,
    });
    expect(own.data.order).toEqual({ id: records.ids.Order, status: 'AWAITING_PAYMENT' });
  });

  for (const type of STAFF_TYPES) {
    it(`${/^[AEIOU]/u.test(type) ? 'an' : 'a'} ${type} by id: staff get it; anyone else gets UNAUTHORIZED and nothing of it`, async () => {
      const id = records.ids[type]!;
      expect((await staffData(t, NODE, { id })).node).toEqual({ __typename: type, id });
      for (const caller of NOT_STAFF) {
        const result = await t.gql('query ($id: ID!) { node(id: $id) { __typename id ... on Account { accountId } } }', { id }, caller);
        expect(result.data).toEqual({ node: null });
        expect(codes(result.errors)).toEqual(['UNAUTHORIZED']);
        expect(result.errors![0]!.path).toEqual(['node']);
        // Retrying the same request will not help, as the REST table says (NOT_FOUND and VALIDATION_FAILED said so; this did not).
        expect(result.errors![0]!.extensions?.retryable).toBe(false);
      }
    });
  }

  it('nodes answers each id on its own: a refused id fails only its item, at its index', async () => {
    const ids = [records.ids.Order!, records.ids.Payment!, 'not-an-id', records.ids.Claim!];
    const anonymous = await t.gql(NODES, { ids });
    expect(anonymous.data).toEqual({ nodes: [null, null, null, null] });
    expect(anonymous.errors!.map((e) => [e.path, e.extensions?.code])).toEqual([
      [['nodes', 1], 'UNAUTHORIZED'],
      [['nodes', 2], 'VALIDATION_FAILED'],
      [['nodes', 3], 'UNAUTHORIZED'],
    ]);
    const staff = await t.gql(NODES, { ids }, { token: t.adminToken });
    expect(staff.data.nodes).toEqual([
      { __typename: 'Order', id: records.ids.Order },
      { __typename: 'Payment', id: records.ids.Payment },
      null,
      { __typename: 'Claim', id: records.ids.Claim },
    ]);
    expect(staff.errors!.map((e) => [e.path, e.extensions?.code])).toEqual([[['nodes', 2], 'VALIDATION_FAILED']]);
  });

  it('refuses anyone but staff a Notification, TokenInfo or OrderDecision id before reading it: known, unknown or malformed', async () => {
    const ids = [
      records.ids.Notification!,
      UNKNOWN.Notification,
      MALFORMED.Notification,
      records.ids.TokenInfo!,
      UNKNOWN.TokenInfo,
      MALFORMED.TokenInfo,
      records.ids.OrderDecision!,
      UNKNOWN.OrderDecision,
      MALFORMED.OrderDecision,
    ];
    for (const caller of NOT_STAFF) {
      const result = await t.gql(NODES, { ids }, caller);
      expect(result.data).toEqual({ nodes: ids.map(() => null) });
      expect(result.errors!.map((e) => [e.path, e.extensions?.code])).toEqual(ids.map((_id, i) => [['nodes', i], 'UNAUTHORIZED']));
    }
  });

  it('refuses ids it never gave out with VALIDATION_FAILED (never an unexpected error), for staff and anyone', async () => {
    const madeUp = [
      'not-an-id',
      '',
      'pay_',
      Buffer.from('Order:abc').toString('base64'),
      Buffer.from('Claim:-1').toString('base64'),
      Buffer.from('Account:["only-one-part"]').toString('base64'),
      Buffer.from('SleeveOptions:1').toString('base64'),
      Buffer.from('Nope:1').toString('base64'),
      // Decodes to an order's key, but is not how this API writes it (its padding is missing).
      Buffer.from('Order:1001').toString('base64').replace(/=+$/u, ''),
      ...Object.values(MALFORMED),
      // A TokenInfo is named by the vault's hash of its token, never by the token itself.
      Buffer.from(`TokenInfo:${records.vaultToken}`).toString('base64'),
    ];
    for (const id of madeUp) {
      const result = await t.gql(NODE, { id }, { token: t.adminToken });
      expect(result.data, id).toEqual({ node: null });
      expect(codes(result.errors), id).toEqual(['VALIDATION_FAILED']);
      expect(result.errors![0]!.message, id).toMatch(/is not an id this API gave out\.$/u);
    }
  });

  it('answers null to staff for an id of the right form whose object does not exist', async () => {
    const unknown = ['pay_00000000-0000-0000-0000-000000000000', 'site_unknown', b64('Order:424242'), b64('OrderDecision:424242'), ...Object.values(UNKNOWN)];
    for (const id of unknown) {
      expect((await staffData(t, NODE, { id })).node, id).toBeNull();
    }
  });

  it('takes at most 100 ids in one nodes', async () => {
    const ids = Array.from({ length: 101 }, () => records.ids.Order!);
    const result = await t.gql(NODES, { ids }, { token: t.adminToken });
    expect(codes(result.errors)).toEqual(['VALIDATION_FAILED']);
    expect(result.errors![0]!.message).toBe('At most 100 ids at a time.');
    const hundred = await staffData(t, NODES, { ids: ids.slice(1) });
    expect(hundred.nodes).toHaveLength(100);
  });
});
