/**
 * The event bus: the pub/sub of `@graphql-yoga/subscription` (a plain library with no GraphQL in it) over an EventTarget. In memory by default; with REDIS_URL, Redis
 * carries the events (separate publish and subscribe connections), so a subscriber on one instance sees a change
 * made on another. Services publish after commit, never inside a transaction.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { MemoryEventTarget } from './memory-event-target.ts';
import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type { Redis } from 'ioredis';
import { RedisClient } from '../kernel/drivers.ts';
import { answeredWithin, closeRedis, pingForReadiness, watchRedisLink, type RedisLink } from '../kernel/redis-connection.ts';
import type { Topics } from './topics.ts';
import { resumptions, subscriptions } from './redis-subscriptions.ts';

/** The topics whose events have no routing key: the ones a listener for the process's life follows whole. */
export type WholeTopic = { [K in keyof Topics]: Topics[K] extends [unknown] ? K : never }[keyof Topics];
/** The topics published under a routing key (one order's changes): a listener follows one key. */
export type KeyedTopic = { [K in keyof Topics]: Topics[K] extends [string, unknown] ? K : never }[keyof Topics];

export interface EventBus extends PubSub<Topics> {
  /**
   * Calls `handler` with each event of `topic` (from any instance, with Redis) inside the publisher's own call,
   * listening from this call on. It is for the listeners that need no async iterator: those that follow a topic for
   * the whole life of the process (the hold timer, the dispatchers, the MCP door), and a hold countdown's watch on
   * its one order (src/orders/live-service.ts). `subscribe` hands each event to each subscriber through a Repeater's
   * buffer and a loop of awaits; on the orders path that cost 10–14% of throughput (docs/benchmark-history.md), and held
   * open by each of thousands of subscribers it is most of what one weighs (docs/graphql.md#what-one-subscriber-costs). The
   * handler must be quick and must not throw; whatever it starts, it catches itself. A handler that throws anyway
   * is cut off from the publisher and reported to `onListenerError`. Returns the unsubscribe.
   */
  listen<K extends WholeTopic>(topic: K, handler: (event: Topics[K][0]) => void): () => void;
  /** The events of a keyed topic published under `key` (one order's changes), as above. */
  listen<K extends KeyedTopic>(topic: K, key: string, handler: (event: Topics[K][1]) => void): () => void;
  /**
   * Resolves once Redis has acknowledged every SUBSCRIBE this process has sent so far (at once in memory). A stream
   * subscribes, awaits this, and only then reads the state it starts with or says it is open: an event published
   * after that read reaches it. Without the wait, the read could answer while the SUBSCRIBE was still on its way,
   * and a change made meanwhile (on any instance) went to nobody (docs/graphql.md#subscriptions).
   */
  subscribed(): Promise<void>;
  /**
   * Calls `handler` each time the Redis subscription is back after a break (Redis restarted, the link dropped),
   * once Redis has acknowledged the resubscription. Whatever was published meanwhile, on any instance, was lost: a
   * stream or cache that shows state reads it again here (docs/graphql.md#subscriptions). Never called in memory.
   * `awayMs`: how long the subscriber was away, from its break to the resubscription's acknowledgement. The
   * handler must be quick and must not throw, as with `listen`. Returns the unsubscribe.
   */
  onResume(handler: (awayMs: number) => void): () => void;
  /** With Redis: whether its connections are up, and when that changes (src/operations/redis-link.ts reports it). */
  readonly redisLink?: RedisLink;
}

/**
 * How far before a break a stream that sends what changed during it looks (`orderEvents`, the staff's delivery
 * streams): the rows' times were written by every instance's clock, which may differ from this one's by this much.
 */
export const RESUME_CLOCK_MARGIN_MS = 30_000;


/** How events reach this process: at once in memory; on Redis, once subscribed, and again after a break. */
type Arrival = Pick<EventBus, 'subscribed' | 'onResume'>;
const IN_MEMORY: Arrival = { subscribed: async () => {}, onResume: () => () => {} };

export interface EventBusHandle {
  bus: EventBus;
  /**
   * Resolves when both Redis connections are up, each answers PING and no SUBSCRIBE is owed (always, in memory):
   * docs/operations.md#readiness.
   */
  check(): Promise<void>;
  /** Closes the Redis connections, if any. */
  dispose(): Promise<void>;
}

export interface EventBusOptions {
  redisUrl?: string | null;
  /** Prefix of every Redis channel: instances of one event share it; separate deployments (or tests) differ. */
  channelPrefix?: string;
  /** Where a `listen` handler's throw goes instead of to the publisher (a service, just after its commit). */
  onListenerError?: (error: unknown, topic: string) => void;
}

export function createEventBus({ redisUrl, channelPrefix = '', onListenerError = () => {} }: EventBusOptions = {}): EventBusHandle {
  if (!redisUrl) {
    // Not node's EventTarget, which refuses the events of a test environment imitating a browser (memory-event-target.ts).
    const target = new MemoryEventTarget();
    return { bus: withListen(target as Target, onListenerError, IN_MEMORY), check: async () => {}, dispose: async () => {} };
  }
  const Redis = RedisClient();
  const publishClient = quiet(new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 }));
  // The ready check stays on: without it ioredis 5 (redis/ioredis#2099) can call a connection that closed during its
  // handshake "ready", stop reconnecting and queue every command for ever, so this instance silently heard nothing
  // more (test/scale/redis-break.test.ts; ioredis 6 fixes it). No CLIENT SETINFO: it let SUBSCRIBEs asked before
  // the first connect overtake the check's INFO, which then fails in subscribe mode (redis/ioredis#2037).
  const subscribeClient = quiet(new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3, disableClientInfo: true }));
  const { subscribed, owed, stop: stopResubscribing } = subscriptions(subscribeClient);
  const redisTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  const state = { closed: false };
  const target = guarded(redisTarget, channelPrefix, state);
  const { onResume, resume } = resumptions(subscribeClient, subscribed, state, onListenerError);
  recoverLostPublishes(publishClient, target, resume);
  const redisLink = watchRedisLink(publishClient, subscribeClient);
  return {
    bus: Object.assign(withListen(target, onListenerError, { subscribed, onResume }), { redisLink }),
    async check() {
      // A subscriber that is down misses events silently; its status says so (truthfully with the ready check on).
      if (subscribeClient.status !== 'ready') {
        const failure = redisLink.failure === undefined ? '' : ` (${redisLink.failure})`;
        throw new Error(`redis events subscriber ${subscribeClient.status}${failure}`);
      }
      // Ready only once the process's own topics (the caches', the dispatchers') are listened to.
      await subscribed();
      if (owed() > 0) throw new Error(`redis events subscriber owes ${owed()} SUBSCRIBE${owed() === 1 ? '' : 's'} (sent again when Redis is back)`);
      await pingForReadiness(publishClient);
    },
    async dispose() {
      state.closed = true;
      stopResubscribing();
      redisLink.stop();
      await closeRedis(publishClient, subscribeClient);
    },
  };
}

type Target = ReturnType<typeof createRedisEventTarget<never>>;
type Listener = Parameters<Target['addEventListener']>[1];

/** yoga's pub/sub over `target`, and `listen` on the same target: both see every event, in publishing order. */
function withListen(target: Target, onError: (error: unknown, topic: string) => void, arrival: Arrival): EventBus {
  const pubsub = createPubSub<Topics>({ eventTarget: target });
  function listen(topic: string, keyOrHandler: string | ((event: unknown) => void), keyed?: (event: unknown) => void) {
    // The event type yoga's pubsub publishes a keyed topic under: "order:1001".
    const type = typeof keyOrHandler === 'string' ? `${topic}:${keyOrHandler}` : topic;
    const handler = typeof keyOrHandler === 'string' ? keyed! : keyOrHandler;
    const listener = ((event: CustomEvent<unknown>) => {
      try {
        handler(event.detail);
      } catch (error) {
        onError(error, topic);
      }
    }) as unknown as Listener;
    target.addEventListener(type as never, listener);
    return () => target.removeEventListener(type as never, listener);
  }
  return Object.assign(pubsub, { listen: listen as EventBus['listen'], subscribed: arrival.subscribed, onResume: arrival.onResume });
}

/**
 * The Redis target with every topic prefixed, and silent once the bus is closed: streams that end during
 * shutdown still unsubscribe, and those calls must not reach a closed connection.
 */
function guarded(target: Target, prefix: string, state: { closed: boolean }): Target {
  return {
    addEventListener: (topic: string, listener: Listener) => {
      if (!state.closed) target.addEventListener((prefix + topic) as never, listener);
    },
    removeEventListener: (topic: string, listener: Listener) => {
      if (!state.closed) target.removeEventListener((prefix + topic) as never, listener);
    },
    dispatchEvent: (event: { type: string; detail?: unknown }) =>
      !state.closed && target.dispatchEvent(new CustomEvent(prefix + event.type, { detail: event.detail }) as never),
  } as Target;
}

/** The bus's own channel (beside the topics, under the same prefix): "publishes were lost", with how long ago. */
const PUBLISHES_LOST = 'bus:publishes-lost';

/** How often a loss is announced again while Redis refuses publishes with the connection up. */
const ANNOUNCE_RETRY_MS = 1_000;

/**
 * A PUBLISH that fails is lost for every instance, this one included, and no subscriber broke, so none resumed: every
 * display went on showing what it showed before the change. It fails when ioredis gives it up after three
 * reconnection tries, when it goes unanswered (answeredWithin), and also with the connection up: a user whom an ACL
 * does not allow PUBLISH, a script running past its time limit (BUSY). So the loss is announced on a channel of the
 * bus's own as soon as Redis takes a publish again: when the publishing connection is back, and while it stayed
 * up, by trying the announcement every ANNOUNCE_RETRY_MS. Every instance then runs its resume handlers as after a
 * break of its own subscriber, with `awayMs` reaching back to the first lost publish, which is forgotten only once
 * an announcement made after it went through. When Redis itself restarted, the subscribers resume too: the handlers
 * then run twice, which costs a second read of what each shows and nothing else.
 */
function recoverLostPublishes(client: Redis, target: Target, resume: (awayMs: number) => void): void {
  /** When the first publish not yet announced as lost was sent, and the number of the last one lost. */
  let lostSince: number | null = null;
  let lastLost = 0;
  let sent = 0;
  let retry: NodeJS.Timeout | undefined;
  const publish = client.publish.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as Record<string, unknown>).publish = (...args: unknown[]) => {
    const at = Date.now();
    const number = ++sent;
    // Its channel is the bus's prefix followed by PUBLISHES_LOST; no topic's name ends so.
    const announcement = String(args[0]).endsWith(PUBLISHES_LOST);
    // One ioredis dropped unanswered was never announced (answeredWithin); a late answer costs a re-read.
    const result = answeredWithin(publish(...args), 'PUBLISH');
    result.then(
      // Each publish lost before this announcement was sent is announced: unless another was lost since, all is told.
      () => void (announcement && lastLost < number && (lostSince = null)),
      () => {
        lostSince = Math.min(lostSince ?? at, at);
        lastLost = Math.max(lastLost, number);
        retry ??= setTimeout(() => {
          retry = undefined;
          // With the connection down, its `ready` announces it.
          if (client.status === 'ready') announce();
        }, ANNOUNCE_RETRY_MS).unref();
      },
    );
    return result;
  };
  function announce(): void {
    if (lostSince !== null) target.dispatchEvent(new CustomEvent(PUBLISHES_LOST, { detail: { awayMs: Date.now() - lostSince } }) as never);
  }
  client.on('ready', announce);
  target.addEventListener(PUBLISHES_LOST as never, ((event: CustomEvent<{ awayMs: number }>) => resume(event.detail.awayMs)) as unknown as Listener);
}

/**
 * redis-event-target calls subscribe, unsubscribe and publish without handling their promises; one that fails
 * (the connection closing under it) must not become an unhandled rejection that takes the process down.
 */
function quiet(client: Redis): Redis {
  // ioredis reconnects by itself; without a listener it prints every failed attempt to stderr. While it cannot,
  // /ready says so (docs/operations.md#readiness).
  client.on('error', () => {});
  for (const method of ['subscribe', 'unsubscribe', 'publish'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const result = original(...args);
      result.catch(() => {});
      return result;
    };
  }
  return client;
}
