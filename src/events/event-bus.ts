/**
 * The event bus: graphql-yoga's createPubSub over an EventTarget. In memory by default; with REDIS_URL, Redis
 * carries the events (separate publish and subscribe connections), so a subscriber on one instance sees a change
 * made on another. Services publish after commit, never inside a transaction.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Topics } from './topics.ts';

export type EventBus = PubSub<Topics>;

export interface EventBusHandle {
  bus: EventBus;
  /** Closes the Redis connections, if any. */
  dispose(): Promise<void>;
}

export function createEventBus({ redisUrl }: { redisUrl?: string | null } = {}): EventBusHandle {
  if (!redisUrl) return { bus: createPubSub<Topics>(), dispose: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  return {
    bus: createPubSub<Topics>({ eventTarget }),
    async dispose() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
