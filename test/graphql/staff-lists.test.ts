/**
 * The staff lists and settings of docs/graphql.md#root-fields on the GraphQL door, over both transports
 * (support/graphql-transports.ts): the order list's pages and filter, the option set, the event information, and the
 * public pickup board. The staff scope and the order moves are in staff.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { codeOf, COLLECT, OPTIONS, ORDERS, PICKUP, SET_EVENT_INFO, staffRequests, UPDATE_OPTIONS } from './staff-operations.ts';

let t: TestGateway;
let staff: { token: string };
const { create, paid, ok, advance } = staffRequests(() => t);

describe.each(TRANSPORTS)('over %s', (transport) => {
  beforeEach(async () => {
    t = await gatewayOver(transport);
    staff = { token: t.adminToken };
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
