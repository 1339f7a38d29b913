/**
 * The subscribing side of the event bus on Redis (src/events/event-bus.ts): which SUBSCRIBEs a stream waits for,
 * which are owed and sent again after a break, and when the subscriber has come back.
 */
import type { Redis } from 'ioredis';
import { within } from '../kernel/bounded-wait.ts';
import { answeredWithin, BUS_COMMAND_WAIT_MS } from '../kernel/redis-connection.ts';

/** The longest a stream waits for Redis to acknowledge its SUBSCRIBE (see subscriptions()). */
const SUBSCRIBE_WAIT_MS = BUS_COMMAND_WAIT_MS;
/** How soon a SUBSCRIBE refused with the connection up (not lost with it) is sent again, doubling up to the most. */
const RESUBSCRIBE_RETRY_MS = 1_000;
const RESUBSCRIBE_RETRY_MAX_MS = 30_000;

/**
 * What `subscribed()` waits for: every SUBSCRIBE sent so far, answered, failed or unanswered past its bound
 * (a stream must not hang on a break). redis-event-target sends one for a channel's first listener and none for the
 * next, whose wait is then the first one's, and takes the channel as listened to from then on; but ioredis
 * resubscribes after a break only to channels whose SUBSCRIBE was answered. So one that failed (sent while Redis was
 * away, or at a start before Redis was up) or went unanswered is owed here and sent again at the connection's next
 * `ready`, or shortly when the connection is up; until then `owed()` counts it and the instance is not ready.
 * Before, such a channel was never listened to: a stream opened during a break, and every later one of that order,
 * heard nothing more, and an instance started before Redis never heard its caches' topics
 * (test/scale/redis-subscribe-during-break.test.ts).
 */
export function subscriptions(client: Redis): { subscribed: () => Promise<void>; owed: () => number; stop: () => void } {
  let all: Promise<unknown> = Promise.resolve();
  /** The channels listened to now, as the event target asked for them. */
  const wanted = new Set<string>();
  const owed = new Set<string>();
  /** One retry of what is owed at a time, sooner after a success (a refusal by Redis itself: an ACL, OOM). */
  let retry: NodeJS.Timeout | undefined;
  let retryMs = RESUBSCRIBE_RETRY_MS;
  const subscribe = client.subscribe.bind(client) as (...channels: string[]) => Promise<unknown>;
  const unsubscribe = client.unsubscribe.bind(client) as (...channels: string[]) => Promise<unknown>;
  function send(channels: string[]): Promise<unknown> {
    const answer = subscribe(...channels);
    answer.then(() => {
      // Unsubscribed while this was on its way (or taken as lost, below, and answered late): nobody's channel now.
      const unwanted = channels.filter((channel) => !wanted.has(channel));
      if (unwanted.length > 0) void unsubscribe(...unwanted);
    }, () => undefined);
    // One ioredis dropped unanswered was never listened to, and every later wait on `all` (each new stream's, each
    // /ready's) ran to its bound: the instance said 503 for good. Taken as failed, it is owed (answeredWithin).
    const result = answeredWithin(answer, 'SUBSCRIBE');
    result.then(
      () => {
        retryMs = RESUBSCRIBE_RETRY_MS;
        for (const channel of channels) owed.delete(channel);
      },
      () => {
        for (const channel of channels) if (wanted.has(channel)) owed.add(channel);
        if (client.status !== 'ready' || retry !== undefined) return;
        retry = setTimeout(() => ((retry = undefined), resend()), retryMs).unref();
        retryMs = Math.min(retryMs * 2, RESUBSCRIBE_RETRY_MAX_MS);
      },
    );
    all = Promise.allSettled([all, result]);
    return result;
  }
  function resend(): void {
    if (owed.size > 0 && client.status === 'ready') void send([...owed]);
  }
  const patched = client as unknown as Record<string, unknown>;
  patched.subscribe = (...channels: string[]) => {
    for (const channel of channels) wanted.add(channel);
    return send(channels);
  };
  patched.unsubscribe = (...channels: string[]) => {
    for (const channel of channels) {
      wanted.delete(channel);
      owed.delete(channel);
    }
    return unsubscribe(...channels);
  };
  // Before resumptions' own `ready` listener: what it waits for (subscribed()) includes these.
  client.on('ready', resend);
  return {
    async subscribed() {
      // A SUBSCRIBE that ioredis never settles must not hold every new stream for ever: past the bound the stream
      // starts as it did before this wait, and /ready (whose check waits here too) says 503 meanwhile.
      await within(all, SUBSCRIBE_WAIT_MS, () => undefined);
    },
    owed: () => owed.size,
    stop: () => clearTimeout(retry),
  };
}

/**
 * What `onResume` follows: the subscriber's `ready` after a `close`. ioredis emits `ready` just before it sends the
 * resubscription (autoResubscribe), so the handlers run a turn later, once that is acknowledged too.
 */
export function resumptions(
  client: Redis,
  subscribed: () => Promise<void>,
  state: { closed: boolean },
  onError: (error: unknown, topic: string) => void,
): { onResume: (handler: (awayMs: number) => void) => () => void; resume: (awayMs: number) => void } {
  const handlers = new Set<(awayMs: number) => void>();
  let broken = false;
  let brokenAt = 0;
  function resume(awayMs: number): void {
    if (state.closed) return;
    for (const handler of [...handlers]) {
      try {
        handler(awayMs);
      } catch (error) {
        onError(error, 'resume');
      }
    }
  }
  client.on('close', () => {
    if (!broken) brokenAt = Date.now();
    broken = true;
  });
  client.on('ready', () => {
    if (!broken) return;
    broken = false;
    setImmediate(() => void subscribed().then(() => resume(Date.now() - brokenAt)));
  });
  return {
    onResume: (handler) => {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    resume,
  };
}
