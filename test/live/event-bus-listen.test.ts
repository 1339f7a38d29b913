/**
 * `bus.listen` (src/events/event-bus.ts): the listeners that follow a topic for the process's life get every event
 * of it, in memory and from another instance through Redis; one that throws never reaches the publisher (a service
 * just after its commit) and is reported; after its unsubscribe it gets nothing. A keyed topic's listener (a hold
 * countdown's watch on its order) gets the events of its key only, as `subscribe(topic, key)` does.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBusHandle } from '../../src/events/event-bus.ts';
import type { OrderChangedEvent } from '../../src/events/topics.ts';

const REDIS = process.env.TEST_REDIS_URL;
const handles: EventBusHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

function bus(options: Parameters<typeof createEventBus>[0] = {}): EventBusHandle {
  const handle = createEventBus(options);
  handles.push(handle);
  return handle;
}

const change = (n: number) => ({ orderNumber: String(n), change: 'created', version: 1, holdUntil: n }) as unknown as OrderChangedEvent;

async function eventually<T>(read: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('bus.listen', () => {
  it('gives every event of its topic, in order, beside a subscriber; nothing after the unsubscribe', async () => {
    const { bus: events } = bus();
    const heard: string[] = [];
    const unlisten = events.listen('orderChanged', (event) => heard.push(event.orderNumber));
    const subscription = events.subscribe('orderChanged')[Symbol.asyncIterator]();
    const first = subscription.next();
    events.publish('orderChanged', change(1));
    events.publish('orderChanged', change(2));
    events.publish('optionsChanged', { version: 3 } as never);
    expect(heard).toEqual(['1', '2']); // within the publisher's own call
    expect((await first).value.orderNumber).toBe('1');
    unlisten();
    events.publish('orderChanged', change(3));
    expect(heard).toEqual(['1', '2']);
    await subscription.return?.();
  });

  it('keeps a throwing listener from the publisher, reports it, and still calls the others', async () => {
    const reported: Array<[string, string]> = [];
    const { bus: events } = bus({ onListenerError: (error, topic) => reported.push([topic, (error as Error).message]) });
    const heard: string[] = [];
    events.listen('orderChanged', () => {
      throw new Error('listener broke');
    });
    events.listen('orderChanged', (event) => heard.push(event.orderNumber));
    expect(() => events.publish('orderChanged', change(7))).not.toThrow();
    expect(heard).toEqual(['7']);
    expect(reported).toEqual([['orderChanged', 'listener broke']]);
  });

  it("gives a keyed topic's listener the events of its key only, as a keyed subscriber gets them", async () => {
    const { bus: events } = bus();
    const heard: string[] = [];
    const unlisten = events.listen('order', '1001', (event) => heard.push(`${event.orderNumber}@${event.version}`));
    const subscription = events.subscribe('order', '1001')[Symbol.asyncIterator]();
    const first = subscription.next();
    events.publish('order', '1002', { ...change(1002), version: 1 });
    events.publish('order', '1001', { ...change(1001), version: 2 });
    events.publish('orderChanged', change(1001));
    expect(heard).toEqual(['1001@2']);
    expect((await first).value.version).toBe(2);
    unlisten();
    events.publish('order', '1001', { ...change(1001), version: 3 });
    expect(heard).toEqual(['1001@2']);
    await subscription.return?.();
  });

  // Eleven people watching one order, or any page open on the options, were "a possible memory leak" to node's
  // EventTarget (a warning on stderr at the 11th listener of one type), which told operators of a leak there is not.
  it('holds many subscribers and listeners of one topic without a memory-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const { bus: events } = bus();
      const subscriptions = Array.from({ length: 30 }, () => events.subscribe('order', '1001')[Symbol.asyncIterator]());
      const firsts = subscriptions.map((subscription) => subscription.next());
      const unlisten = Array.from({ length: 30 }, () => events.listen('optionsChanged', () => {}));
      events.publish('order', '1001', { ...change(1001), version: 2 });
      expect((await Promise.all(firsts)).map((first) => first.value.version)).toEqual(Array(30).fill(2));
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on the next tick
      expect(warnings).toEqual([]);
      for (const stop of unlisten) stop();
      await Promise.all(subscriptions.map((subscription) => subscription.return?.()));
    } finally {
      process.off('warning', onWarning);
    }
  });

  it.skipIf(!REDIS)("hears a keyed topic's events of its key from another instance through Redis", async () => {
    const prefix = `listen-${randomUUID()}:`;
    const here = bus({ redisUrl: REDIS, channelPrefix: prefix });
    const there = bus({ redisUrl: REDIS, channelPrefix: prefix });
    const heard: number[] = [];
    here.bus.listen('order', '1001', (event) => heard.push(event.version));
    await eventually(() => {
      there.bus.publish('order', '1001', { ...change(1001), version: 1 });
      return heard.length > 0 ? true : undefined;
    });
    there.bus.publish('order', '1002', { ...change(1002), version: 99 });
    there.bus.publish('order', '1001', { ...change(1001), version: 2 });
    expect(await eventually(() => (heard.includes(2) ? heard.at(-1) : undefined))).toBe(2);
    expect(heard).not.toContain(99);
  });

  it.skipIf(!REDIS)('hears what another instance publishes through Redis', async () => {
    const prefix = `listen-${randomUUID()}:`;
    const here = bus({ redisUrl: REDIS, channelPrefix: prefix });
    const there = bus({ redisUrl: REDIS, channelPrefix: prefix });
    const heard: string[] = [];
    here.bus.listen('orderChanged', (event) => heard.push(event.orderNumber));
    // The SUBSCRIBE goes out asynchronously: publish until the first arrives, then one that must arrive after it.
    await eventually(() => {
      there.bus.publish('orderChanged', change(1));
      return heard.length > 0 ? true : undefined;
    });
    there.bus.publish('orderChanged', change(2));
    expect(await eventually(() => (heard.includes('2') ? heard.at(-1) : undefined))).toBe('2');
  });
});
