/**
 * The event bus: graphql-yoga's createPubSub over an EventTarget. In memory by default; a Redis event target
 * is the second implementation, for several instances. Services publish after commit, never inside a transaction.
 */
import { createPubSub, type PubSub } from 'graphql-yoga';
import type { Topics } from './topics.ts';

export type EventBus = PubSub<Topics>;

export function createEventBus(): EventBus {
  return createPubSub<Topics>();
}
