/**
 * Rate limits that fit a venue (docs/edge.md#rate-limits-at-a-venue). Each request of a route group is counted
 * twice: per client address (the whole venue's NAT shares one, so these limits are generous) and per subject — the
 * email for creating, the order for paying and looking up — whose small limits stop one client hammering one email
 * or order within seconds. A lookup or pay naming its order and payToken counts against the address only if the
 * token does not open the order (TokenGroup above). Every door calls `take` with the same group and subject, so a
 * GraphQL field costs exactly what the REST path doing the same work costs.
 *
 * The window slides (docs/edge.md#rate-limits-at-a-venue: a fixed window lets 2× its limit through at an edge): the
 * sliding-window counter, the count of the current fixed window plus the previous window's count weighted by the
 * part of it still inside the sliding window. The counts live in this process (window-counts.ts, counted
 * synchronously: `takeNow`), or in Redis through rate-limiter-flexible's store (the gateway's ioredis) when REDIS_URL
 * is set, so every instance counts together. Window numbers come from the gateway's clock, so a manual clock moves
 * the windows in tests; a count lives two windows, then goes.
 *
 * Only allowed requests count: a refused one is handed back, so a client refused on its email does not use up the
 * address's budget the rest of the venue shares.
 */
import type { Redis } from 'ioredis';
import { RedisClient } from './drivers.ts';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { within } from './bounded-wait.ts';
import { limitedAddress } from './client-address.ts';
import { closeRedis, pingForReadiness, REDIS_COMMAND_TIMEOUT_MS } from './redis-connection.ts';
import type { Clock } from './clock.ts';
import type { RateLimitConfig } from './config.ts';
import { emailKey } from './email.ts';
import { sha256Hex } from './tokens.ts';
import { DomainError } from './errors.ts';
import { WindowCounts } from './window-counts.ts';

export type RateGroup = 'session' | 'lookup' | 'create' | 'pay' | 'challenge' | UnopenedGroup;

/**
 * The groups whose subject holds a payToken, and the address budgets of their requests that the token did not open
 * (docs/edge.md#wrong-tokens): such a request counts against the address only when it fails before proving it
 * holds the order (token-guesses.ts), so a script trying tokens cannot spend the budget the venue's owners share.
 */
const TOKEN_GROUPS: readonly RateGroup[] = ['lookup', 'pay'] satisfies TokenGroup[];
export type TokenGroup = 'lookup' | 'pay';
export type UnopenedGroup = `unopened-${TokenGroup}`;

const GROUP_CLASS: Record<Exclude<RateGroup, 'challenge'>, 'read' | 'write'> = {
  session: 'read',
  lookup: 'read',
  create: 'write',
  pay: 'write',
  'unopened-lookup': 'read',
  'unopened-pay': 'write',
};

/** Whether a request counts against its address up front: all do but a lookup or pay naming its order and token. */
const addressCounted = (group: RateGroup, subject: string | undefined): boolean => subject === undefined || !TOKEN_GROUPS.includes(group);

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (for `Retry-After`). */
  retryAfter: number;
}

export interface RateLimiter {
  /**
   * Counts one request of `group` from `client` about `subject` (a normalized email or an order number; omitted
   * when the request names none, e.g. a body that is not JSON). Refused when either count is over its limit.
   */
  take(group: RateGroup, client: string, subject?: string): Promise<RateDecision>;
  /**
   * The same count answered at once, where the counts are in this process (no REDIS_URL, or limits off); absent
   * where they are shared and only a promise can answer. The fast JSON path saves its promise hops with it.
   */
  readonly takeNow?: (group: RateGroup, client: string, subject?: string) => RateDecision;
  /** Resolves when the shared store answers (always, in memory): docs/operations.md#readiness. */
  check(): Promise<void>;
  /**
   * Resolves once the shared store is connected, or after CONNECT_WAIT_MS without it. Awaited before the gateway
   * serves: requests counted in memory while the connection was still being made were counted again from zero in
   * Redis (a client got its limit twice over at each start). Absent where the counts are in this process.
   */
  readonly connected?: () => Promise<void>;
  /** Closes the Redis connection, if any. */
  dispose(): Promise<void>;
}

export interface RateLimiterOptions {
  redisUrl?: string | null;
  /** Prefix of the Redis keys (REDIS_PREFIX), so events sharing one Redis count apart. */
  prefix?: string;
  /** Told of every refusal, by group: the `sleeve_rate_limit_refusals_total` counter (docs/operations.md#metrics). */
  onRefusal?: (group: RateGroup) => void;
}

/** Longest subject kept as a key: an email is at most 254 characters; a longer one is refused later anyway. */
const SUBJECT_MAX = 256;

/**
 * The two counts a request makes, the same keys in either store: by client address (an IPv6 one by its prefix,
 * client-address.ts), and by subject when it names one.
 */
const clientKey = (group: RateGroup, client: string, config: RateLimitConfig): string => `${group}:a:${limitedAddress(client, config.ipv6Prefix)}`;
const subjectKey = (group: RateGroup, subject: string): string => `${group}:s:${subject.slice(0, SUBJECT_MAX)}`;

/** Each group's limits: by client address (its read or write limit) and by subject. */
function limitsByGroup(config: RateLimitConfig): Record<RateGroup, { client: number; subject: number }> {
  const of = (kind: 'read' | 'write') => ({ client: config[kind], subject: kind === 'read' ? config.subjectRead : config.subjectWrite });
  // The processor's verification webhook answers whether an account exists, unauthenticated (document 2 §4): a
  // processor asks once when a URL is set up, so each address gets a subject's write budget there, not a venue's,
  // which bounds anyone probing it for the emails of sleeve orders (docs/notifications.md#processor-verification-webhook).
  const challenge = { client: config.subjectWrite, subject: config.subjectWrite };
  const classed = Object.entries(GROUP_CLASS).map(([group, kind]) => [group, of(kind)] as const);
  return { ...(Object.fromEntries(classed) as Record<keyof typeof GROUP_CLASS, ReturnType<typeof of>>), challenge };
}

const ALLOWED: RateDecision = { allowed: true, retryAfter: 0 };
const ALLOWED_PROMISE = Promise.resolve(ALLOWED);

export function createRateLimiter(config: RateLimitConfig, clock: Clock, options: RateLimiterOptions = {}): RateLimiter {
  if (!config.enabled) return { take: () => ALLOWED_PROMISE, takeNow: () => ALLOWED, check: async () => {}, dispose: async () => {} };
  if (!options.redisUrl) return new LocalRateLimiter(config, clock, options.onRefusal);
  const { windowMs } = config;
  const limits = limitsByGroup(config);
  // Two windows: the current one and the previous one read for the slide.
  const duration = Math.ceil((2 * windowMs) / 1000);
  // No offline queue: while the connection is down a command fails at once (the counts go to memory) instead of
  // waiting for the reconnect, which made every request seconds slower, more with each backoff. A command left
  // unanswered (Redis silent) fails after REDIS_COMMAND_TIMEOUT_MS instead of holding the request for minutes.
  const redis = new (RedisClient())(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', () => {}); // ioredis reconnects by itself; while it cannot, the counts are kept in memory
  const ready = new Promise<void>((resolve) => {
    redis.once('ready', () => resolve());
    redis.once('end', () => resolve());
  });
  const shared = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.prefix ?? ''}rl`, points: Number.MAX_SAFE_INTEGER, duration });
  // Redis unreachable: count in this process rather than refuse everyone or fail the request.
  const memory = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration });
  // After a failure, memory alone for a while: a silent Redis would otherwise cost every request the timeout.
  let sharedAgainAt = 0;
  const store = (): RateLimiterAbstract => (redis.status === 'ready' && performance.now() >= sharedAgainAt ? shared : memory);
  async function counted<T>(run: (on: RateLimiterAbstract) => Promise<T>): Promise<T> {
    const on = store();
    if (on === memory) return run(memory);
    try {
      return await run(shared);
    } catch {
      sharedAgainAt = performance.now() + SHARED_RETRY_MS;
      return run(memory);
    }
  }

  /** One sliding count: counts this request and answers whether it is within `limit`. */
  async function count(key: string, limit: number, now: number): Promise<SlideCount> {
    const window = Math.floor(now / windowMs);
    const [current, previous] = await Promise.all([counted((on) => on.penalty(`${key}:${window}`, 1)), counted((on) => on.get(`${key}:${window - 1}`))]);
    return slide(current.consumedPoints, previous?.consumedPoints ?? 0, limit, now - window * windowMs, windowMs, `${key}:${window}`);
  }

  return {
    async take(group, client, subject) {
      const now = clock.now();
      const counts: Promise<SlideCount>[] = [];
      if (addressCounted(group, subject)) counts.push(count(clientKey(group, client, config), limits[group].client, now));
      if (subject !== undefined) counts.push(count(subjectKey(group, subject), limits[group].subject, now));
      const results = await Promise.all(counts);
      if (results.every((r) => r.allowed)) return ALLOWED;
      // Refused: hand every count back, so only allowed requests use up a budget.
      await Promise.all(results.map((r) => counted((on) => on.reward(r.key, 1)).catch(() => undefined)));
      options.onRefusal?.(group);
      return { allowed: false, retryAfter: Math.max(...results.map((r) => r.retryAfter)) };
    },
    async connected() {
      await within(ready, CONNECT_WAIT_MS, () => undefined);
    },
    async check() {
      // While Redis is down each instance counts alone (in memory): a client gets N× its limit.
      await pingForReadiness(redis);
    },
    async dispose() {
      await closeRedis(redis);
    },
  };
}

/** How long a gateway starting waits for its limiter's Redis connection before it counts in memory. */
const CONNECT_WAIT_MS = 2_000;

/** How long the counts stay in memory after Redis failed a command, before Redis is asked again. */
const SHARED_RETRY_MS = 5_000;

/**
 * The single instance's limiter: the same keys, slide and hand-back as the shared one above, its counts in this
 * process (window-counts.ts). A class with bound methods, not closures: `take` runs for every request.
 */
class LocalRateLimiter implements RateLimiter {
  private readonly counts = new WindowCounts();
  private readonly limits: ReturnType<typeof limitsByGroup>;

  constructor(
    private readonly config: RateLimitConfig,
    private readonly clock: Clock,
    private readonly onRefusal: ((group: RateGroup) => void) | undefined,
  ) {
    this.takeNow = this.takeNow.bind(this);
    this.limits = limitsByGroup(config);
  }

  take(group: RateGroup, client: string, subject?: string): Promise<RateDecision> {
    const decision = this.takeNow(group, client, subject);
    return decision === ALLOWED ? ALLOWED_PROMISE : Promise.resolve(decision);
  }

  takeNow(group: RateGroup, client: string, subject?: string): RateDecision {
    const { config } = this;
    const now = this.clock.now();
    const window = Math.floor(now / config.windowMs);
    const elapsed = now - window * config.windowMs;
    const limits = this.limits[group];
    let first: SlideCount | undefined;
    let byClient = '';
    if (addressCounted(group, subject)) {
      byClient = clientKey(group, client, config);
      const a = this.counts.add(byClient, window);
      first = slide(a.current, a.previous, limits.client, elapsed, config.windowMs);
    }
    let second: SlideCount | undefined;
    let bySubject = '';
    if (subject !== undefined) {
      bySubject = subjectKey(group, subject);
      const s = this.counts.add(bySubject, window);
      second = slide(s.current, s.previous, limits.subject, elapsed, config.windowMs);
    }
    if ((first === undefined || first.allowed) && (second === undefined || second.allowed)) return ALLOWED;
    // Refused: hand every count back, so only allowed requests use up a budget.
    if (first !== undefined) this.counts.remove(byClient, window);
    if (second !== undefined) this.counts.remove(bySubject, window);
    this.onRefusal?.(group);
    return { allowed: false, retryAfter: Math.max(first?.retryAfter ?? 0, second?.retryAfter ?? 0) };
  }

  async check(): Promise<void> {}

  async dispose(): Promise<void> {}
}

/**
 * The subject of a lookup or a pay: the order and the payToken presented (16 hex digits of its SHA-256: a store key
 * never holds a token). Counted per order alone, anyone could spend an order's budget with wrong tokens, and its
 * owner met 429 on paying and looking up (order numbers count up from 1001: a script could hold every order of the
 * event so); now a wrong token spends only its own count, and a client repeating a request with the right token is
 * still limited within seconds. None when the order number is not a string or number.
 */
export function orderSubject(orderNumber: unknown, token: unknown): string | undefined {
  if (typeof orderNumber !== 'string' && typeof orderNumber !== 'number') return undefined;
  return `${orderNumber}:${typeof token === 'string' ? sha256Hex(token).slice(0, 16) : '-'}`;
}

/**
 * The subject of creating: the email as "one order per email" compares it, by 32 hex digits of its SHA-256, so that
 * no Redis key names an attendee (an operator's review read them with SCAN); none when it is not a string.
 */
export function emailSubject(email: unknown): string | undefined {
  return typeof email === 'string' ? sha256Hex(emailKey(email)).slice(0, 32) : undefined;
}

/** The REST doors' check: over a limit, the documented 429 `rate_limited` with Retry-After. */
export async function enforceRateLimit(limiter: RateLimiter, group: RateGroup, client: string, subject?: string): Promise<void> {
  const decision = await limiter.take(group, client, subject);
  if (!decision.allowed) {
    throw new DomainError('rate_limited', 'Too many requests. Wait a moment, then try again.', { retryAfter: decision.retryAfter });
  }
}

interface SlideCount extends RateDecision {
  /** The store key counted, to hand the request back when it is refused. */
  key: string;
}

/**
 * The sliding-window estimate: `current` requests in this fixed window (this one included), `previous` in the one
 * before, `elapsed` ms into this window. Over `limit`, the seconds until one more request would fit, assuming none
 * come meanwhile.
 */
export function slide(current: number, previous: number, limit: number, elapsed: number, windowMs: number, key = ''): SlideCount {
  const estimate = current + (previous * (windowMs - elapsed)) / windowMs;
  if (estimate <= limit) return { allowed: true, retryAfter: 0, key };
  const kept = current - 1; // this request is handed back when refused
  let waitMs: number;
  if (kept + 1 <= limit && previous > 0) {
    // Within this window, once enough of the previous one has slid out.
    waitMs = windowMs * (1 - (limit - kept - 1) / previous) - elapsed;
  } else {
    // In the next window, once enough of this one has slid out.
    waitMs = windowMs - elapsed + windowMs * Math.max(0, 1 - (limit - 1) / Math.max(kept, 1));
  }
  return { allowed: false, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)), key };
}
