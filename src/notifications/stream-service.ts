/**
 * A bus topic as an async iterable of views, for the staff's delivery streams: each event reloaded (or skipped when
 * `load` gives null). The first `next()` is asked at once, because the pubsub starts listening on it, and the stream
 * is handed over once Redis has acknowledged the SUBSCRIBE: nothing published after it resolves is missed. An event
 * whose view cannot be read is skipped, not thrown: thrown, it would end the subscription (sent as the operation's
 * error), and a staff screen would hear no more deliveries until reloaded.
 *
 * What a stream missed is sent later instead (docs/graphql.md#subscriptions): after a break in Redis (whatever was
 * published during it was lost on every instance), and once the database answers again after a read failed for an
 * outage (`recovery`, src/events/read-recovery.ts), `replay` gives the views of what changed since, less the margin
 * the instances' clocks may differ by, and they are sent as events are. A screen may get one it had already: it keeps
 * the newest.
 */
import { Repeater } from '@repeaterjs/repeater';
import { RESUME_CLOCK_MARGIN_MS, type EventBus } from '../events/event-bus.ts';
import type { ReadRecovery } from '../events/read-recovery.ts';
import type { Topics } from '../events/topics.ts';
import type { Clock } from '../kernel/clock.ts';

type SingleTopic = { [K in keyof Topics]: Topics[K] extends [infer _E] ? K : never }[keyof Topics];

export interface StreamSource<K extends SingleTopic, T> {
  load: (event: Topics[K][0]) => Promise<T | null>;
  /** The views of what changed at or after `since` (epoch ms), oldest first. */
  replay: (since: number) => Promise<T[]>;
  clock: Clock;
  /** The service's: its resumes (the bus's and the database's) start the replays; failed reads are reported to it. */
  recovery: ReadRecovery;
}

/** The most a replay sends: the newest changes, when more happened during the break (the lists show the rest). */
export const REPLAY_MAX = 200;

/** Each id's view, in order, leaving out those gone meanwhile. */
export async function viewsOf<T>(ids: readonly string[], view: (id: string) => Promise<T | null>): Promise<T[]> {
  const views: T[] = [];
  for (const id of ids) {
    const found = await view(id);
    if (found !== null) views.push(found);
  }
  return views;
}

export async function streamOf<K extends SingleTopic, T>(bus: EventBus, topic: K, { load, replay, clock, recovery }: StreamSource<K, T>): Promise<AsyncIterable<T>> {
  const subscribe = bus.subscribe as unknown as (name: K) => AsyncIterable<Topics[K][0]>;
  const source = subscribe.call(bus, topic)[Symbol.asyncIterator]();
  const first = source.next();
  await bus.subscribed();
  const unread = (error: unknown): null => {
    recovery.readFailed(`${topic} stream`, error); // logged; after an outage, replayed once the database answers
    return null;
  };
  return new Repeater<T>(async (push, stop) => {
    /** What changed since `awayMs` ago, sent as events are; a replay that cannot be read is reported as one. */
    const sendMissed = async (awayMs: number) => {
      const views = await replay(clock.now() - awayMs - RESUME_CLOCK_MARGIN_MS).catch(unread);
      for (const view of views ?? []) await push(view);
    };
    // A push fails only when the stream is already ending with an error: it ends with that one.
    const unresume = recovery.onResume((awayMs) => void sendMissed(awayMs).catch((error: unknown) => stop(error)));
    void (async () => {
      try {
        for (let event = await first; !event.done; event = await source.next()) {
          const view = await load(event.value).catch(unread);
          if (view !== null) await push(view);
        }
        stop();
      } catch (error) {
        stop(error);
      }
    })();
    await stop;
    unresume();
    await source.return?.();
  });
}
