/**
 * A bus topic as an async iterable of views: each event reloaded (or skipped when `load` gives null). The first
 * `next()` is asked at once, because the pubsub starts listening on it, and the stream is handed over once Redis has
 * acknowledged the SUBSCRIBE: nothing published after it resolves is missed. An event whose view cannot be read (the
 * database unreachable) is skipped and logged, and the stream goes on: thrown, it would end the subscription (sent as
 * the operation's error), and a staff screen would hear no more deliveries until reloaded. The lists show what it
 * missed.
 */
import type { EventBus } from '../events/event-bus.ts';
import type { Topics } from '../events/topics.ts';
import type { Logger } from '../kernel/logger.ts';

type SingleTopic = { [K in keyof Topics]: Topics[K] extends [infer _E] ? K : never }[keyof Topics];

export async function streamOf<K extends SingleTopic, T>(
  bus: EventBus,
  topic: K,
  load: (event: Topics[K][0]) => Promise<T | null>,
  logger: Logger,
): Promise<AsyncIterable<T>> {
  const subscribe = bus.subscribe as unknown as (name: K) => AsyncIterable<Topics[K][0]>;
  const source = subscribe.call(bus, topic)[Symbol.asyncIterator]();
  let first: ReturnType<typeof source.next> | null = source.next();
  await bus.subscribed();
  return (async function* () {
    try {
      for (;;) {
        const event = await (first ?? source.next());
        first = null;
        if (event.done) return;
        const view = await load(event.value).catch((error: unknown) => {
          logger.warn(`${topic} stream: an event could not be read; skipped`, { error });
          return null;
        });
        if (view !== null) yield view;
      }
    } finally {
      await source.return?.();
    }
  })();
}
