/** What every resolver receives. Built per request (HTTP) or per operation (WebSocket) by graphql-server/context-factory.ts. */
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';

export interface Viewer {
  /** Presented the ADMIN_TOKEN as a bearer token (docs/graphql.md#staff-authorization). */
  isStaff: boolean;
}

export interface GraphQLContext {
  services: Services;
  viewer: Viewer;
  /** The client address, for rate limits shared with the REST door. */
  clientAddress: string;
  /** The same limiter: a lookup or pay whose payToken opens nothing counts against the address (token-guesses.ts). */
  limiter: RateLimiter;
  /** PUBLIC_URL, the base of image and payment links. */
  publicUrl: string;
  /** The gateway's clock (epoch ms), for texts computed at send time. */
  now: () => number;
}

/**
 * The extension a root Query field declares when its whole answer, down to every leaf, follows from one object the
 * services hold and from the gateway's settings — nothing of the caller, the time or the request — and the services
 * hold a new object (or none) whenever it changes: `extensions: { [SNAPSHOT]: (services) => that object }`. The fast
 * path then keeps a query's answer while the object stays the same (graphql-server/answer-cache.ts). `undefined`:
 * not loaded yet, nothing is kept.
 */
export const SNAPSHOT = 'sleeveAnswerFollows';
export type SnapshotOf = (services: Services) => object | undefined;
