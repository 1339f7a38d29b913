/**
 * `bus.subscribed()` (src/events/event-bus.ts): on Redis, a stream is handed over only once Redis has acknowledged
 * its SUBSCRIBE, so an event published on another instance after that reaches it. Bus A reaches Redis through a
 * link that holds what it sends for 300 ms (test/support/faulty-link.ts), bus B directly: without the wait, B's
 * event reached Redis before A's SUBSCRIBE and went to nobody. A GraphQL stream is counted in the subscriptions gauge
 * only from then on, which the tests that wait for their streams rely on (test/support/subscriptions-open.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus, type EventBusHandle } from '../../src/events/event-bus.ts';
import { createReadRecovery } from '../../src/events/read-recovery.ts';
import type { OrderChangedEvent } from '../../src/events/topics.ts';
import { streamOf } from '../../src/notifications/stream-service.ts';
import { createLogger, type Logger } from '../../src/kernel/logger.ts';
import { systemClock } from '../../src/kernel/clock.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { until } from '../support/order-streams.ts';
import { openSubscriptions, subscriptionsOpen } from '../support/subscriptions-open.ts';

const REDIS = process.env.TEST_REDIS_URL;
const LAG_MS = 300;
const handles: EventBusHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

/** Bus A behind the lagging link and bus B direct, on one channel prefix of their own. */
async function twoBuses(): Promise<{ a: EventBusHandle; b: EventBusHandle }> {
  const channelPrefix = `ack-${randomUUID()}:`;
  const a = createEventBus({ redisUrl: (await faultyLink(REDIS!, { lagMs: LAG_MS })).url, channelPrefix });
  const b = createEventBus({ redisUrl: REDIS!, channelPrefix });
  handles.push(a, b);
  await Promise.all([connected(a), connected(b)]);
  return { a, b };
}

/** Once both of the bus's connections are up (its readiness check passes). */
async function connected(handle: EventBusHandle): Promise<void> {
  const until = Date.now() + 5_000;
  for (;;) {
    try {
      return await handle.check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** What `promise` gives, or undefined when it has not settled in `ms` (an event that never comes). */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<undefined>((resolve) => void setTimeout(resolve, ms))]);

const disabled = (endpointId: string) => ({ endpointId, siteId: 's', url: 'https://example.com', reason: 'gone', at: 1 });

/** What streamOf needs beside its load and replay: the system clock, and a read recovery whose database always answers. */
function recoveryOn(bus: EventBus, logger: Logger) {
  return { clock: systemClock, recovery: createReadRecovery({ onBusResume: (handler) => bus.onResume(handler), probe: async () => {}, clock: systemClock, logger }) };
}

describe('the event bus in memory', () => {
  it('skips and logs an event whose view cannot be read (streamOf), and goes on with the next', async () => {
    const handle = createEventBus();
    const lines: string[] = [];
    const load = async (event: ReturnType<typeof disabled>) => {
      if (event.endpointId === 'ep_unreadable') throw new Error('Connection terminated unexpectedly');
      return event.endpointId;
    };
    const logger = createLogger('warn', (line) => lines.push(line));
    const stream = (await streamOf(handle.bus, 'webhookEndpointDisabled', { load, replay: async () => [], ...recoveryOn(handle.bus, logger) }))[Symbol.asyncIterator]();
    const first = stream.next();
    handle.bus.publish('webhookEndpointDisabled', disabled('ep_unreadable'));
    handle.bus.publish('webhookEndpointDisabled', disabled('ep_2'));
    expect((await within(first, 5_000))?.value).toBe('ep_2');
    // Not an outage (no DomainError 'unavailable'): logged as the bug it is, and not waited for (read-recovery.ts).
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['webhookEndpointDisabled stream: a read failed']);
    await stream.return?.();
  });

  it('is subscribed at once', async () => {
    const handle = createEventBus();
    const iterator = handle.bus.subscribe('orderChanged')[Symbol.asyncIterator]();
    const first = iterator.next();
    await handle.bus.subscribed();
    handle.bus.publish('orderChanged', { orderNumber: '1' } as OrderChangedEvent);
    expect((await first).value.orderNumber).toBe('1');
    await iterator.return?.();
  });
});

describe.skipIf(!REDIS)(`the event bus on Redis, behind a slow link${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  it('resolves subscribed() once Redis has the SUBSCRIBE: an event published elsewhere just after reaches the stream', async () => {
    const { a, b } = await twoBuses();
    const iterator = a.bus.subscribe('order', '1001')[Symbol.asyncIterator]();
    const first = iterator.next();
    const started = Date.now();
    await a.bus.subscribed();
    // The acknowledgement crossed the link: it cannot have come sooner.
    expect(Date.now() - started).toBeGreaterThanOrEqual(LAG_MS - 20);
    b.bus.publish('order', '1001', { orderNumber: '1001', version: 2 } as OrderChangedEvent);
    expect((await within(first, 5_000))?.value).toMatchObject({ orderNumber: '1001', version: 2 });
    await iterator.return?.();
  });

  it("counts a GraphQL stream in the subscriptions gauge only once Redis has its SUBSCRIBE (what tests wait on)", async () => {
    const link = await faultyLink(REDIS!);
    const live = await liveServer({ env: { REDIS_URL: link.url, REDIS_PREFIX: `gauge-${randomUUID()}:` } });
    await until(async () => (await live.rest('GET', '/ready')).status === 200, 5_000, 'both Redis connections up');
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    link.freeze();
    const updates = subscribe(live.client(), 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', {
      n: created.body.orderNumber,
      t: created.body.payToken,
    });
    // Its SUBSCRIBE is in the frozen link, unanswered: the stream is not listening, and not counted.
    await until(() => /\bsubscribe\r\n/iu.test(link.held()), 5_000, "the stream's SUBSCRIBE");
    expect(await openSubscriptions(live.server.url, 'orderUpdates')).toBe(0);
    link.restore();
    await subscriptionsOpen(live.server.url, 'orderUpdates');
    expect((await updates.next(10_000)).orderUpdates.status).toBe('AWAITING_PAYMENT');
  });

  it('hands over a pure event stream (streamOf) only once it listens', async () => {
    const { a, b } = await twoBuses();
    const stream = (await streamOf(a.bus, 'webhookEndpointDisabled', { load: async (event) => event, replay: async () => [], ...recoveryOn(a.bus, createLogger('silent')) }))[Symbol.asyncIterator]();
    const first = stream.next();
    b.bus.publish('webhookEndpointDisabled', disabled('ep_1'));
    expect((await within(first, 5_000))?.value).toMatchObject({ endpointId: 'ep_1' });
    await stream.return?.();
  });
});
