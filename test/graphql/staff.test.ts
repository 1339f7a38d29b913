/**
 * The staff operations of docs/graphql.md#root-fields on the GraphQL door, over both transports (in memory through the real
 * /graphql handler, and through the production node:http entry on a real port; support/graphql-transports.ts):
 * the staff scope on every staff field, forward-only moves, collection by name and cancellation. The order list,
 * options, event information and the public pickup board are in staff-lists.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { ADVANCE, CANCEL, codeOf, COLLECT, OPTIONS, ORDER_FIELDS, ORDERS, SET_EVENT_INFO, staffRequests, UPDATE_OPTIONS } from './staff-operations.ts';

let t: TestGateway;
let staff: { token: string };
const { create, paid, ok, advance } = staffRequests(() => t);

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
});
