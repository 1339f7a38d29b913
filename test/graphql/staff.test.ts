/**
 * The staff operations of docs/graphql.md#root-fields on the GraphQL door, over both transports (in memory through the real
 * /graphql handler, and through the production node:http entry on a real port; support/graphql-transports.ts):
 * the staff scope on every staff field, forward-only moves, collection by name, cancellation, the order list,
 * options and event information, and the public pickup board.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VALID_ORDER, type GqlResult, type TestGateway } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

let t: TestGateway;
let staff: { token: string };

const ORDER_FIELDS = 'orderNumber status name email version createdAt paidAt updatedAt cancelReason collectedBy';

const ADVANCE = `mutation ($n: ID!, $s: OrderStatus!) { advanceOrder(orderNumber: $n, status: $s) { ${ORDER_FIELDS} } }`;
const COLLECT = `mutation ($n: ID!, $c: String!) { collectOrder(orderNumber: $n, collectorName: $c) { ${ORDER_FIELDS} } }`;
const CANCEL = `mutation ($n: ID!, $r: String!) { cancelOrder(orderNumber: $n, reason: $r) { ${ORDER_FIELDS} } }`;
const ORDERS = /* GraphQL */ `
  query ($status: [OrderStatus!], $first: Int, $after: String) {
    orders(status: $status, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { orderNumber status email } }
    }
  }
`;
const UPDATE_OPTIONS = /* GraphQL */ `
  mutation ($input: SleeveOptionsInput!) {
    updateSleeveOptions(input: $input) { version sizes fonts threads charLimit threadChoices { value image } }
  }
`;
const SET_EVENT_INFO = 'mutation ($text: String!) { setEventInfo(text: $text) }';
const PICKUP = '{ pickupBoard { orderNumber displayName readySince } }';

const OPTIONS = {
  sizes: [{ value: '17-inch' }, { value: '13-inch' }],
  fonts: [{ value: 'Block' }],
  threads: [{ value: 'Teal', color: '#008080' }, { value: 'Gold', color: null }],
  charLimit: 12,
};

let seq = 0;
const create = (change: Record<string, unknown> = {}) => t.createOrder({ email: `g${++seq}@example.com`, ...change });

async function paid(change: Record<string, unknown> = {}): Promise<string> {
  const { orderNumber, payToken } = await create(change);
  const res = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return orderNumber;
}

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await t.gql<T>(query, variables, staff);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data;
}

function codeOf(result: GqlResult<unknown>) {
  expect(result.errors, 'expected an error').toBeDefined();
  return result.errors![0]!.extensions?.code;
}

async function advance(n: string, status: string) {
  return (await ok(ADVANCE, { n, s: status })).advanceOrder;
}

describe.each(TRANSPORTS)('over %s', (transport) => {
  beforeEach(async () => {
    t = await gatewayOver(transport);
    staff = { token: t.adminToken };
  });

  describe('the staff scope (docs/graphql.md#staff-authorization: Authorization: Bearer $ADMIN_TOKEN)', () => {
    const operations: Array<[string, string, () => Promise<Record<string, unknown>>]> = [
      ['orders', ORDERS, async () => ({})],
      ['advanceOrder', ADVANCE, async () => ({ n: await paid(), s: 'IN_PROGRESS' })],
      ['collectOrder', COLLECT, async () => ({ n: await paid(), c: 'Ada Lovelace' })],
      ['cancelOrder', CANCEL, async () => ({ n: await paid(), r: 'thread ran out' })],
      ['updateSleeveOptions', UPDATE_OPTIONS, async () => ({ input: OPTIONS })],
      ['setEventInfo', SET_EVENT_INFO, async () => ({ text: 'Doors open at 9.' })],
    ];

    for (const [field, query, variables] of operations) {
      it(`${field}: UNAUTHORIZED without a token and with a wrong one, and changes nothing`, async () => {
        const vars = await variables();
        const before = await ok(ORDERS);
        for (const options of [{}, { token: 'wrong-token' }, { token: `${t.adminToken}x` }]) {
          const result = await t.gql(query, vars, options);
          expect(codeOf(result)).toBe('UNAUTHORIZED');
          expect(result.errors![0]!.path).toEqual([field]);
          expect(result.data).toBeNull();
        }
        expect(await ok(ORDERS)).toEqual(before);
        expect((await ok('{ sleeveOptions { version } }')).sleeveOptions.version).toBe(1);
        expect((await t.rest('GET', '/llms-full.txt')).body).not.toBe('Doors open at 9.');
      });
    }

    it('accepts each staff field with the token', async () => {
      const n = await paid();
      expect(await advance(n, 'READY')).toMatchObject({ orderNumber: n, status: 'READY' });
      expect((await ok(COLLECT, { n, c: 'ada lovelace' })).collectOrder.status).toBe('COLLECTED');
      expect((await ok(CANCEL, { n: await paid(), r: 'thread ran out' })).cancelOrder.status).toBe('CANCELLED');
      expect((await ok(ORDERS)).orders.totalCount).toBe(2);
      expect((await ok(UPDATE_OPTIONS, { input: OPTIONS })).updateSleeveOptions.version).toBe(2);
      expect((await ok(SET_EVENT_INFO, { text: 'Doors open at 9.' })).setEventInfo).toBe('Doors open at 9.');
    });

    it('updateSleeveOptions with the version it was edited from: refused once another set was published since, and nothing changes', async () => {
      // Two staff edit version 1; the first publishes (withdrawing a font), the second's publish must not undo it.
      expect((await ok(UPDATE_OPTIONS, { input: { ...OPTIONS, baseVersion: 1 } })).updateSleeveOptions.version).toBe(2);
      const stale = await t.gql(UPDATE_OPTIONS, { input: { ...OPTIONS, fonts: [{ value: 'Block' }, { value: 'Script' }], baseVersion: 1 } }, { token: t.adminToken });
      expect(codeOf(stale)).toBe('VALIDATION_FAILED');
      expect(stale.errors![0]!.extensions).toMatchObject({ field: 'baseVersion' });
      expect(stale.errors![0]!.message).toContain('Version 2 was published after version 1');
      expect((await ok('{ sleeveOptions { version fonts } }')).sleeveOptions).toEqual({ version: 2, fonts: ['Block'] });
      expect((await ok(UPDATE_OPTIONS, { input: { ...OPTIONS, baseVersion: 2 } })).updateSleeveOptions.version).toBe(3);
    });

    it('refuses the staff-only Order fields to anyone else, and shows them to staff', async () => {
      const { orderNumber, payToken } = await create({ name: 'Ada Lovelace', email: 'ada@example.com' });
      for (const field of ['name', 'email', 'createdAt', 'paidAt', 'updatedAt', 'version']) {
        const query = `query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { orderNumber ${field} } }`;
        for (const options of [{}, { token: 'wrong-token' }]) {
          const result = await t.gql(query, { n: orderNumber, t: payToken }, options);
          expect(codeOf(result), field).toBe('UNAUTHORIZED');
          // A non-null field's error nulls the order; a nullable one (paidAt) is null itself.
          expect(result.data.order?.[field] ?? null).toBeNull();
          expect(JSON.stringify(result)).not.toContain('ada@example.com');
        }
      }
      const created = await t.gql(
        'mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber email } } }',
        { input: { ...VALID_ORDER, email: 'other@example.com' } },
      );
      expect(codeOf(created)).toBe('UNAUTHORIZED');
      const seen = await ok(`query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { ${ORDER_FIELDS} } }`, {
        n: orderNumber,
        t: payToken,
      });
      expect(seen.order).toMatchObject({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        version: 1,
        createdAt: '2026-11-22T15:00:00.000Z',
        paidAt: null,
        updatedAt: '2026-11-22T15:00:00.000Z',
      });
    });

    it('keeps name and email out of the REST bodies', async () => {
      const { orderNumber, payToken } = await create({ email: 'secret@example.com' });
      const res = await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toMatch(/secret@example\.com|Lovelace/u);
    });
  });

  describe('advanceOrder (forward only)', () => {
    it('moves RECEIVED straight to READY, and never back', async () => {
      const n = await paid();
      const ready = await advance(n, 'READY');
      expect(ready).toMatchObject({ status: 'READY', version: 3 });
      const back = await t.gql(ADVANCE, { n, s: 'IN_PROGRESS' }, staff);
      expect(codeOf(back)).toBe('VALIDATION_FAILED');
      expect(back.errors![0]!.extensions).toMatchObject({ field: 'status' });
      expect(back.errors![0]!.message).toMatch(/forward only/u);
    });

    it('refuses an unpaid order, a cancelled order and COLLECTED', async () => {
      const unpaid = (await create()).orderNumber;
      expect(codeOf(await t.gql(ADVANCE, { n: unpaid, s: 'IN_PROGRESS' }, staff))).toBe('VALIDATION_FAILED');
      const n = await paid();
      const collected = await t.gql(ADVANCE, { n, s: 'COLLECTED' }, staff);
      expect(codeOf(collected)).toBe('VALIDATION_FAILED');
      expect(collected.errors![0]!.message).toMatch(/collectOrder/u);
      await ok(CANCEL, { n, r: 'thread ran out' });
      expect(codeOf(await t.gql(ADVANCE, { n, s: 'READY' }, staff))).toBe('VALIDATION_FAILED');
    });

    it('answers NOT_FOUND for an unknown order', async () => {
      expect(codeOf(await t.gql(ADVANCE, { n: '4242', s: 'READY' }, staff))).toBe('NOT_FOUND');
    });
  });

  describe('collectOrder (name match)', () => {
    it('matches ignoring case, accents and extra spaces', async () => {
      const n = await paid({ name: 'José Núñez' });
      await advance(n, 'READY');
      const order = (await ok(COLLECT, { n, c: '  jose   NUNEZ ' })).collectOrder;
      expect(order).toMatchObject({ status: 'COLLECTED', collectedBy: 'jose NUNEZ' });
    });

    it('refuses a mismatch and changes nothing', async () => {
      const n = await paid({ name: 'José Núñez' });
      const before = await advance(n, 'READY');
      const result = await t.gql(COLLECT, { n, c: 'Maria Núñez' }, staff);
      expect(codeOf(result)).toBe('VALIDATION_FAILED');
      expect(result.errors![0]!.extensions).toMatchObject({ field: 'collectorName' });
      const listed = await ok(`{ orders { edges { node { version status } } } }`);
      expect(listed.orders.edges[0].node).toEqual({ version: before.version, status: 'READY' });
    });

    it('refuses an order that is not ready yet', async () => {
      const n = await paid();
      const result = await t.gql(COLLECT, { n, c: 'Ada Lovelace' }, staff);
      expect(codeOf(result)).toBe('VALIDATION_FAILED');
      expect(result.errors![0]!.message).toMatch(/not ready/u);
    });
  });

  describe('cancelOrder', () => {
    it('frees the email: the same email can order again', async () => {
      const n = await paid({ email: 'again@example.com' });
      const dup = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'again@example.com' });
      expect(dup.status).toBe(409);
      const order = (await ok(CANCEL, { n, r: 'customer changed their mind' })).cancelOrder;
      expect(order).toMatchObject({ status: 'CANCELLED', cancelReason: 'customer changed their mind' });
      const again = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'again@example.com' });
      expect(again.status).toBe(201);
    });

    it('refuses a collected order and an empty reason', async () => {
      const n = await paid();
      expect(codeOf(await t.gql(CANCEL, { n, r: '  ' }, staff))).toBe('VALIDATION_FAILED');
      await advance(n, 'READY');
      await ok(COLLECT, { n, c: 'Ada Lovelace' });
      const result = await t.gql(CANCEL, { n, r: 'too late' }, staff);
      expect(codeOf(result)).toBe('VALIDATION_FAILED');
      expect(result.errors![0]!.message).toMatch(/collected/u);
    });
  });

  describe('orders (pagination)', () => {
    it('pages through five paid orders two at a time, then filters by status', async () => {
      const numbers: string[] = [];
      for (let i = 0; i < 5; i++) numbers.push(await paid());
      const seen: string[] = [];
      let after: string | null = null;
      const pages: boolean[] = [];
      for (;;) {
        const { orders }: any = await ok(ORDERS, { first: 2, after });
        expect(orders.totalCount).toBe(5);
        seen.push(...orders.edges.map((e: any) => e.node.orderNumber));
        pages.push(orders.pageInfo.hasNextPage);
        expect(orders.pageInfo.endCursor).toBe(orders.edges.at(-1).cursor);
        if (!orders.pageInfo.hasNextPage) break;
        after = orders.pageInfo.endCursor;
      }
      expect(seen).toEqual(numbers);
      expect(pages).toEqual([true, true, false]);

      await advance(numbers[3]!, 'READY');
      const ready = (await ok(ORDERS, { status: ['READY'] })).orders;
      expect(ready).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false } });
      expect(ready.edges.map((e: any) => e.node)).toEqual([{ orderNumber: numbers[3], status: 'READY', email: expect.stringMatching(/@/u) }]);
      expect((await ok(ORDERS, { status: ['RECEIVED', 'READY'] })).orders.totalCount).toBe(5);
    });

    it('refuses first over 200 and a made-up cursor', async () => {
      const over = await t.gql(ORDERS, { first: 201 }, staff);
      expect(codeOf(over)).toBe('VALIDATION_FAILED');
      expect(over.errors![0]!.extensions).toMatchObject({ field: 'first' });
      expect(codeOf(await t.gql(ORDERS, { after: '!!' }, staff))).toBe('VALIDATION_FAILED');
      expect((await ok(ORDERS, { first: 200 })).orders.edges).toEqual([]);
    });
  });

  describe('updateSleeveOptions', () => {
    it('refuses a set with a problem, naming the field', async () => {
      for (const [input, field] of [
        [{ ...OPTIONS, sizes: [] }, 'sizes'],
        [{ ...OPTIONS, fonts: [{ value: 'Block' }, { value: 'block' }] }, 'fonts'],
        [{ ...OPTIONS, threads: [{ value: 'Teal', color: 'teal' }] }, 'threads'],
        [{ ...OPTIONS, charLimit: 0 }, 'charLimit'],
      ] as const) {
        const result = await t.gql(UPDATE_OPTIONS, { input }, staff);
        expect(codeOf(result), field).toBe('VALIDATION_FAILED');
        expect(result.errors![0]!.extensions).toMatchObject({ field });
      }
      expect((await ok('{ sleeveOptions { version } }')).sleeveOptions.version).toBe(1);
    });

    it('checks new orders against the new set; an existing order keeps its options', async () => {
      const existing = await create({ size: '15-inch', thread: 'Navy' });
      const set = (await ok(UPDATE_OPTIONS, { input: OPTIONS })).updateSleeveOptions;
      expect(set).toMatchObject({ version: 2, sizes: ['17-inch', '13-inch'], threads: ['Teal', 'Gold'], charLimit: 12 });
      expect(set.threadChoices[0].image).toBe('http://sleeve.test/images/options/thread/Teal.svg');
      expect((await ok('{ sleeveOptions { sizes } }')).sleeveOptions.sizes).toEqual(['17-inch', '13-inch']);

      const refused = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'new@example.com', size: '15-inch' });
      expect(refused.status).toBe(422);
      expect(refused.body.field).toBe('size');
      const accepted = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'new@example.com', size: '17-inch', thread: 'Teal' });
      expect(accepted.status).toBe(201);

      const kept = await t.rest('GET', `/api/orders/${existing.orderNumber}?t=${encodeURIComponent(existing.payToken)}`);
      expect(kept.body.order).toMatchObject({ size: '15-inch', thread: 'Navy' });
    });
  });

  describe('setEventInfo', () => {
    it('replaces GET /llms-full.txt and eventInfo; an empty text is refused', async () => {
      const text = 'Sleeve Summit\nDoors open at 9:00. Lunch at noon.';
      expect((await ok(SET_EVENT_INFO, { text })).setEventInfo).toBe(text);
      const res = await t.rest('GET', '/llms-full.txt');
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/u);
      expect(res.body).toBe(text);
      expect((await ok('{ eventInfo }')).eventInfo).toBe(text);
      const empty = await t.gql(SET_EVENT_INFO, { text: ' ' }, staff);
      expect(codeOf(empty)).toBe('VALIDATION_FAILED');
      expect(empty.errors![0]!.extensions).toMatchObject({ field: 'text' });
    });
  });

  describe('pickupBoard (public)', () => {
    it('shows only READY orders, as "Ada L.", with no email anywhere, to anyone', async () => {
      const ada = await paid({ name: 'Ada Lovelace', email: 'ada@example.com' });
      const grace = await paid({ name: 'Grace Hopper', email: 'grace@example.com' });
      await paid({ name: 'Alan Turing', email: 'alan@example.com' });
      await create({ name: 'Joan Clarke', email: 'joan@example.com' });
      await advance(grace, 'IN_PROGRESS');
      await advance(ada, 'READY');
      await t.clock.advance(60_000);
      await advance(grace, 'READY');

      const result = await t.gql(PICKUP);
      expect(result.errors).toBeUndefined();
      expect(result.data.pickupBoard).toEqual([
        { orderNumber: ada, displayName: 'Ada L.', readySince: '2026-11-22T15:00:00.000Z' },
        { orderNumber: grace, displayName: 'Grace H.', readySince: '2026-11-22T15:01:00.000Z' },
      ]);
      expect(JSON.stringify(result)).not.toMatch(/@|Lovelace|Hopper/u);

      await ok(COLLECT, { n: ada, c: 'Ada Lovelace' });
      expect((await t.gql(PICKUP)).data.pickupBoard.map((e: any) => e.orderNumber)).toEqual([grace]);
    });
  });
});
