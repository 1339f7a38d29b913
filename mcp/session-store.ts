/**
 * Where MCP sessions live (docs/agents.md#sessions): what a session's client declared at initialize, and which order
 * resources it subscribed to. In Redis when REDIS_URL is set — the store every instance reads, as the event bus and
 * the rate limits use it — so any instance can continue any session; in memory otherwise (one instance).
 *
 * A subscription keeps the resource URI, which holds the order's payToken: it is kept sealed with VAULT_KEY (the
 * caller seals it), keyed by a hash of the URI. A session is named by a hash of its id (`sessionKey`), never the id:
 * the id is the session's bearer credential, and with it someone reading Redis could hold the session's stream, to
 * which the next update is sent with the URI opened (a security review found the ids in keys and fields).
 *
 * A session's keys expire a day after it was last used (ten minutes after its initialize while it is not used
 * again; the memory store also holds at most MAX_MEMORY_SESSIONS); an order's list of followers a week after its
 * last change or subscription (an order may wait days for its pickup, followed by a session that stays in use; an
 * entry left by an ended session is only read, never sent to).
 */
import type { Redis } from 'ioredis';
import { RedisClient } from '../src/kernel/drivers.ts';
import { closeRedis, REDIS_COMMAND_TIMEOUT_MS } from '../src/kernel/redis-connection.ts';
import { sha256Hex } from '../src/kernel/tokens.ts';

export interface SessionRecord {
  /** The client declared form elicitation. */
  canElicit: boolean;
  createdAt: number;
}

/** How a session is named in the store, and in what the instances tell each other (relay.ts): a hash of its id. */
export const sessionKey = (sessionId: string): string => sha256Hex(sessionId);

export interface Subscription {
  /** The following session's sessionKey. */
  sessionKey: string;
  uriKey: string;
  sealedUri: string;
}

export interface SessionStore {
  create(id: string, record: SessionRecord): Promise<void>;
  /** The session, its lifetime renewed; null when unknown or expired. */
  get(id: string): Promise<SessionRecord | null>;
  remove(id: string): Promise<void>;
  /** False when the session already holds MAX_SUBSCRIPTIONS. */
  subscribe(id: string, orderNumber: string, uriKey: string, sealedUri: string): Promise<boolean>;
  unsubscribe(id: string, orderNumber: string, uriKey: string): Promise<void>;
  subscribers(orderNumber: string): Promise<Subscription[]>;
  /** The orders the session follows. */
  followed(id: string): Promise<string[]>;
  dispose(): Promise<void>;
}

/** The order numbers of a session's members ("orderNumber uriKey"), once each. */
const ordersOf = (members: Iterable<string>): string[] => [...new Set([...members].map((member) => member.split(' ')[0]!))];

export const SESSION_TTL_SECONDS = 24 * 60 * 60;
/**
 * A session nobody has used since its initialize lives this long: a client that initializes and never comes back
 * (or a script initializing in a loop) leaves nothing for a day. Its first use gives it SESSION_TTL_SECONDS.
 */
export const UNUSED_SESSION_TTL_SECONDS = 10 * 60;
/** The memory store's bound (one instance): past it, the session least recently used goes first. */
export const MAX_MEMORY_SESSIONS = 50_000;
export const MAX_SUBSCRIPTIONS = 50;
const FOLLOWERS_TTL_SECONDS = 7 * 24 * 60 * 60;

export function createSessionStore(options: { redisUrl: string | null; prefix: string }): SessionStore {
  return options.redisUrl ? redisStore(options.redisUrl, `${options.prefix}mcp:`) : memoryStore();
}

function redisStore(url: string, prefix: string): SessionStore {
  // Bounded: a silent Redis fails an MCP call rather than holding it (src/kernel/redis-connection.ts).
  const redis = new (RedisClient())(url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', () => {}); // ioredis reconnects; /ready reports Redis through the bus and the limiter
  // From the session's key, hashed once per call.
  const session = (key: string) => `${prefix}s:${key}`;
  const owned = (key: string) => `${prefix}ss:${key}`;
  const byOrder = (orderNumber: string) => `${prefix}o:${orderNumber}`;
  const ttl = SESSION_TTL_SECONDS;
  return {
    async create(id, record) {
      await redis.set(session(sessionKey(id)), JSON.stringify(record), 'EX', UNUSED_SESSION_TTL_SECONDS);
    },
    async get(id) {
      const key = sessionKey(id);
      const [[, value]] = (await redis.multi().get(session(key)).expire(session(key), ttl).expire(owned(key), ttl).exec()) as [[unknown, string | null]];
      return value ? (JSON.parse(value) as SessionRecord) : null;
    },
    async remove(id) {
      const key = sessionKey(id);
      const members = await redis.smembers(owned(key));
      const multi = redis.multi().del(session(key), owned(key));
      for (const member of members) {
        const [orderNumber, uriKey] = member.split(' ');
        multi.hdel(byOrder(orderNumber!), `${key} ${uriKey}`);
      }
      await multi.exec();
    },
    async subscribe(id, orderNumber, uriKey, sealedUri) {
      const key = sessionKey(id);
      const member = `${orderNumber} ${uriKey}`;
      if (!(await redis.sismember(owned(key), member)) && (await redis.scard(owned(key))) >= MAX_SUBSCRIPTIONS) return false;
      await redis
        .multi()
        .sadd(owned(key), member)
        .expire(owned(key), ttl)
        .hset(byOrder(orderNumber), `${key} ${uriKey}`, sealedUri)
        .expire(byOrder(orderNumber), FOLLOWERS_TTL_SECONDS)
        .exec();
      return true;
    },
    async unsubscribe(id, orderNumber, uriKey) {
      const key = sessionKey(id);
      await redis.multi().srem(owned(key), `${orderNumber} ${uriKey}`).hdel(byOrder(orderNumber), `${key} ${uriKey}`).exec();
    },
    async subscribers(orderNumber) {
      const [[, found]] = (await redis.multi().hgetall(byOrder(orderNumber)).expire(byOrder(orderNumber), FOLLOWERS_TTL_SECONDS).exec()) as [[unknown, Record<string, string>]];
      const all = found ?? {};
      return Object.entries(all).map(([field, sealedUri]) => {
        const [key, uriKey] = field.split(' ');
        return { sessionKey: key!, uriKey: uriKey!, sealedUri };
      });
    },
    async followed(id) {
      return ordersOf(await redis.smembers(owned(sessionKey(id))));
    },
    async dispose() {
      await closeRedis(redis);
    },
  };
}

function memoryStore(): SessionStore {
  const sessions = new Map<string, { record: SessionRecord; until: number }>();
  /** Order → its followers, each with the session's id (to see it is still live). */
  const byOrder = new Map<string, Map<string, { id: string; subscription: Subscription }>>();
  const owned = new Map<string, Set<string>>();
  const live = (id: string) => {
    const entry = sessions.get(id);
    if (entry && entry.until > Date.now()) return entry;
    if (entry) void store.remove(id);
    return undefined;
  };
  // The Map's order is the order of last use (get moves an entry to the end): the oldest, when full, is first.
  const evictOldest = () => {
    const now = Date.now();
    for (const [id, entry] of sessions) {
      if (sessions.size < MAX_MEMORY_SESSIONS && entry.until > now) return;
      void store.remove(id);
    }
  };
  const store: SessionStore = {
    async create(id, record) {
      if (sessions.size >= MAX_MEMORY_SESSIONS) evictOldest();
      sessions.set(id, { record, until: Date.now() + UNUSED_SESSION_TTL_SECONDS * 1000 });
    },
    async get(id) {
      const entry = live(id);
      if (!entry) return null;
      entry.until = Date.now() + SESSION_TTL_SECONDS * 1000;
      sessions.delete(id);
      sessions.set(id, entry);
      return entry.record;
    },
    async remove(id) {
      sessions.delete(id);
      for (const member of owned.get(id) ?? []) {
        const [orderNumber, uriKey] = member.split(' ');
        byOrder.get(orderNumber!)?.delete(`${id} ${uriKey}`);
      }
      owned.delete(id);
    },
    async subscribe(id, orderNumber, uriKey, sealedUri) {
      const members = owned.get(id) ?? new Set<string>();
      const member = `${orderNumber} ${uriKey}`;
      if (!members.has(member) && members.size >= MAX_SUBSCRIPTIONS) return false;
      members.add(member);
      owned.set(id, members);
      const subs = byOrder.get(orderNumber) ?? new Map<string, { id: string; subscription: Subscription }>();
      subs.set(`${id} ${uriKey}`, { id, subscription: { sessionKey: sessionKey(id), uriKey, sealedUri } });
      byOrder.set(orderNumber, subs);
      return true;
    },
    async unsubscribe(id, orderNumber, uriKey) {
      owned.get(id)?.delete(`${orderNumber} ${uriKey}`);
      byOrder.get(orderNumber)?.delete(`${id} ${uriKey}`);
    },
    async subscribers(orderNumber) {
      return [...(byOrder.get(orderNumber)?.values() ?? [])].filter(({ id }) => live(id)).map(({ subscription }) => subscription);
    },
    async followed(id) {
      return ordersOf(owned.get(id) ?? []);
    },
    async dispose() {
      sessions.clear();
      byOrder.clear();
      owned.clear();
    },
  };
  return store;
}
