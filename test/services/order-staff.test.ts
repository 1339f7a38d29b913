/**
 * The staff use cases of docs/ordering.md#moving-an-order-forward at the service level: forward-only moves, collection by a matching name,
 * cancellation with a reason, the order list, the pickup board, and the events each change publishes after commit.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/kernel/errors.ts';
import type { Order } from '../../src/orders/order.ts';
import { findOrder } from '../../src/orders/order-repository.ts';
import type { EventBus } from '../../src/events/event-bus.ts';
import type { OrderChangedEvent } from '../../src/events/topics.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createOrderStaffService, type OrderStaffService } from '../../src/orders/staff-service.ts';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

let t: TestGateway;
let staff: OrderStaffService;
let published: Array<[string, ...unknown[]]>;
let refunded: Order[];

beforeEach(async () => {
  t = await testGateway();
  published = [];
  refunded = [];
  // The service under test shares the gateway's database; its bus records what is published, in order.
  const bus = { publish: (...args: [string, ...unknown[]]) => void published.push(args) } as unknown as EventBus;
  staff = createOrderStaffService({
    database: t.gateway.database,
    clock: t.clock,
    bus,
    logger: createLogger('silent'),
    publicUrl: 'http://sleeve.test',
    holdSeconds: 300,
    config: t.gateway.config,
    refunds: { refundCancelledOrder: async (order) => void refunded.push(order) },
  });
});

let seq = 0;
async function held(change: Partial<Record<keyof typeof VALID_ORDER, string>> = {}): Promise<{ orderNumber: string; payToken: string }> {
  const { order, payToken } = await t.gateway.services.orders.create({ ...VALID_ORDER, email: `p${++seq}@example.com`, ...change });
  return { orderNumber: order.orderNumber, payToken };
}

async function paid(change: Partial<Record<keyof typeof VALID_ORDER, string>> = {}): Promise<string> {
  const { orderNumber, payToken } = await held(change);
  await t.gateway.services.orders.pay(orderNumber, { t: payToken, method: 'vendor_card' });
  return orderNumber;
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const row = async (orderNumber: string) => (await findOrder(t.gateway.database.db, Number(orderNumber)))!;

describe('advance (docs/ordering.md#moving-an-order-forward: forward only)', () => {
  it('moves received → in progress → ready, bumping the version and publishing after each change', async () => {
    const n = await paid();
    const before = await row(n);
    await t.clock.advance(1000);
    const inProgress = await staff.advance(n, 'in progress');
    expect(inProgress).toMatchObject({ status: 'in progress', version: Number(before.version) + 1, updatedAt: t.clock.now() });
    const ready = await staff.advance(n, 'ready');
    expect(ready).toMatchObject({ status: 'ready', version: Number(before.version) + 2, readyAt: t.clock.now() });
    const event: OrderChangedEvent = { orderNumber: n, status: 'ready', version: ready.version, change: 'advanced', holdUntil: ready.holdUntil };
    expect(published.slice(-2)).toEqual([['orderChanged', event], ['order', n, event]]);
    expect(published).toHaveLength(4);
  });

  it('skips forward: received → ready', async () => {
    const n = await paid();
    expect((await staff.advance(n, 'ready')).status).toBe('ready');
  });

  it('never moves back, nor to the same status, and changes nothing when it refuses', async () => {
    const n = await paid();
    await staff.advance(n, 'ready');
    const version = (await row(n)).version;
    for (const to of ['in progress', 'received', 'ready'] as const) {
      const error = await refusal(staff.advance(n, to));
      expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'status' } });
    }
    expect(await row(n)).toMatchObject({ status: 'ready', version });
  });

  it('refuses collected (only collect reaches it), an unpaid order and a cancelled one', async () => {
    const n = await paid();
    expect((await refusal(staff.advance(n, 'collected'))).message).toMatch(/collectOrder/u);
    const unpaid = (await held()).orderNumber;
    expect((await refusal(staff.advance(unpaid, 'in progress'))).message).toMatch(/not paid/u);
    await staff.cancel(n, 'thread ran out');
    expect((await refusal(staff.advance(n, 'ready'))).message).toMatch(/cancelled/u);
    expect(await row(unpaid)).toMatchObject({ status: 'awaiting payment' });
  });

  it('answers not_found for an unknown order or a malformed number', async () => {
    expect((await refusal(staff.advance('999999', 'ready'))).code).toBe('not_found');
    expect((await refusal(staff.advance('12ab', 'ready'))).code).toBe('not_found');
  });

  it('changes an order once when two staff advance it at the same time', async () => {
    const n = await paid();
    const results = await Promise.allSettled([staff.advance(n, 'ready'), staff.advance(n, 'ready')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(published.filter(([topic]) => topic === 'orderChanged')).toHaveLength(1);
  });
});

describe('collect (docs/ordering.md#collecting-an-order: first and last name must match)', () => {
  async function ready(name = 'José Núñez') {
    const n = await paid({ name });
    await staff.advance(n, 'ready');
    return n;
  }

  it('hands over a ready order when the name matches ignoring case, accents and extra spaces', async () => {
    const n = await ready();
    await t.clock.advance(5000);
    const order = await staff.collect(n, '  jose   NUNEZ ');
    expect(order).toMatchObject({ status: 'collected', collectedAt: t.clock.now(), collectedBy: 'jose NUNEZ' });
    expect(published.at(-1)).toEqual(['order', n, expect.objectContaining({ change: 'collected', status: 'collected' })]);
  });

  it('matches first and last name of a longer name', async () => {
    const n = await ready("Zoë Anne O'Brien-Smith");
    expect((await staff.collect(n, "zoe o'brien-smith")).status).toBe('collected');
  });

  it('refuses a mismatch and changes nothing', async () => {
    const n = await ready();
    const before = await row(n);
    published.length = 0;
    for (const name of ['Maria Núñez', 'José Nunes', 'José', '   ']) {
      const error = await refusal(staff.collect(n, name));
      expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'collectorName' } });
    }
    expect(await row(n)).toEqual(before);
    expect(published).toEqual([]);
  });

  it('refuses an order that is not ready, saying so', async () => {
    const n = await paid({ name: 'José Núñez' });
    const error = await refusal(staff.collect(n, 'José Núñez'));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/not ready/u);
    await staff.advance(n, 'ready');
    await staff.collect(n, 'José Núñez');
    expect((await refusal(staff.collect(n, 'José Núñez'))).message).toMatch(/collected, not ready/u);
  });
});

describe('cancel (docs/ordering.md#cancelling-an-order: any order not collected, with a reason)', () => {
  it('cancels with the reason, frees the email and publishes', async () => {
    const n = await paid({ email: 'Free@Example.com' });
    await t.clock.advance(2000);
    const order = await staff.cancel(n, '  thread ran out ');
    expect(order).toMatchObject({ status: 'cancelled', cancelReason: 'thread ran out', cancelledAt: t.clock.now() });
    expect((await row(n)).email_key).toBeNull();
    expect(published.at(-2)).toEqual(['orderChanged', expect.objectContaining({ change: 'cancelled', orderNumber: n })]);
    const again = await t.gateway.services.orders.create({ ...VALID_ORDER, email: 'free@example.com' });
    expect(again.order.status).toBe('awaiting payment');
  });

  it('cancels a held order too; paying it then answers cancelled without the hold reason', async () => {
    const { orderNumber, payToken } = await held();
    await staff.cancel(orderNumber, 'customer asked');
    const error = await refusal(t.gateway.services.orders.pay(orderNumber, { t: payToken, method: 'vendor_card' }));
    expect(error.code).toBe('cancelled');
    expect(error.details.reason).toBeUndefined();
  });

  it('hands a paid order to the refund seam, and an unpaid one not', async () => {
    const n = await paid();
    const unpaid = (await held()).orderNumber;
    await staff.cancel(unpaid, 'duplicate by mistake');
    await staff.cancel(n, 'thread ran out');
    expect(refunded.map((o) => o.orderNumber)).toEqual([n]);
  });

  it('refuses a collected or already cancelled order', async () => {
    const n = await paid();
    await staff.advance(n, 'ready');
    await staff.collect(n, 'ada lovelace');
    expect((await refusal(staff.cancel(n, 'too late'))).message).toMatch(/collected/u);
    const m = await paid();
    await staff.cancel(m, 'first');
    expect((await refusal(staff.cancel(m, 'second'))).message).toMatch(/already cancelled/u);
    expect((await row(m)).cancel_reason).toBe('first');
  });

  it('needs a reason of 1 to 300 characters', async () => {
    const n = await paid();
    for (const reason of ['', '   ', 'x'.repeat(301)]) {
      expect(await refusal(staff.cancel(n, reason))).toMatchObject({ code: 'validation_failed', details: { field: 'reason' } });
    }
    expect((await staff.cancel(n, 'x'.repeat(300))).status).toBe('cancelled');
  });
});

describe('list', () => {
  it('pages by order number with an opaque cursor, one more row telling hasNextPage', async () => {
    const numbers = [await paid(), await paid(), await paid()];
    const first = await staff.list({ first: 2 });
    expect(first.edges.map((e) => e.node.orderNumber)).toEqual(numbers.slice(0, 2));
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[1]!.cursor });
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.endCursor).not.toContain(numbers[1]);
    const second = await staff.list({ first: 2, after: first.pageInfo.endCursor });
    expect(second.edges.map((e) => e.node.orderNumber)).toEqual(numbers.slice(2));
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it('defaults to 50, refuses more than 200 and a cursor it did not give out', async () => {
    expect((await staff.list()).edges).toEqual([]);
    expect(await staff.list({ first: 200 })).toMatchObject({ totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null } });
    expect(await refusal(staff.list({ first: 201 }))).toMatchObject({ code: 'validation_failed', details: { field: 'first' } });
    expect(await refusal(staff.list({ first: -1 }))).toMatchObject({ details: { field: 'first' } });
    expect(await refusal(staff.list({ after: 'not-a-cursor' }))).toMatchObject({ details: { field: 'after' } });
  });

  it('filters by status', async () => {
    const a = await paid();
    await paid();
    const c = (await held()).orderNumber;
    await staff.advance(a, 'ready');
    const page = await staff.list({ statuses: ['ready', 'awaiting payment'] });
    expect(page.edges.map((e) => e.node.orderNumber)).toEqual([a, c]);
    expect(page.totalCount).toBe(2);
  });
});

describe('pickupBoard', () => {
  it('lists ready orders by readiness with first name and last initial only', async () => {
    const a = await paid({ name: 'Ada Lovelace' });
    const b = await paid({ name: 'Nguyễn Văn An' });
    await paid({ name: 'Grace Hopper' });
    await staff.advance(b, 'ready');
    await t.clock.advance(1000);
    await staff.advance(a, 'ready');
    expect(await staff.pickupBoard()).toEqual([
      { orderNumber: b, displayName: 'Nguyễn A.', readySince: t.clock.now() - 1000 },
      { orderNumber: a, displayName: 'Ada L.', readySince: t.clock.now() },
    ]);
    await staff.collect(b, 'nguyen an');
    expect((await staff.pickupBoard()).map((e) => e.orderNumber)).toEqual([a]);
  });
});
