/**
 * Fixed-window request counting per route group and client address (docs/ordering.md#rate-limits: configurable, generous by
 * default). Both doors use it, so GraphQL operations that do the same work as a REST path share its limit.
 * The whole table is dropped at each window boundary, so memory stays bounded by one window's clients.
 */
import type { Clock } from './clock.ts';
import type { RateLimitConfig } from './config.ts';

export type RateGroup = 'options' | 'lookup' | 'create' | 'pay';

const GROUP_CLASS: Record<RateGroup, 'read' | 'write'> = {
  options: 'read',
  lookup: 'read',
  create: 'write',
  pay: 'write',
};

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the window resets (for `Retry-After`). */
  retryAfter: number;
}

export interface RateLimiter {
  take(group: RateGroup, client: string): RateDecision;
}

export function createRateLimiter(config: RateLimitConfig, clock: Clock): RateLimiter {
  let windowStart = 0;
  // group → client → requests this window. Nested maps, so no key string is built per request.
  let counts = new Map<RateGroup, Map<string, number>>();
  const allowedDecision: RateDecision = { allowed: true, retryAfter: 0 };
  return {
    take(group, client) {
      const now = clock.now();
      if (now - windowStart >= config.windowMs) {
        windowStart = now - (now % config.windowMs);
        counts = new Map();
      }
      let clients = counts.get(group);
      if (!clients) counts.set(group, (clients = new Map()));
      const used = (clients.get(client) ?? 0) + 1;
      clients.set(client, used);
      if (used <= config[GROUP_CLASS[group]]) return allowedDecision;
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((windowStart + config.windowMs - now) / 1000)) };
    },
  };
}
