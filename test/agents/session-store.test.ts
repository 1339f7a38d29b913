/**
 * How long MCP sessions live (docs/agents.md#sessions): a session used again lives a day after its last use; one
 * never used after its initialize ten minutes; the memory store holds a bounded number, the least recently used
 * going first. Before, every session lived a day and the memory store kept abandoned ones until read: a client
 * initializing in a loop grew the heap without bound.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, MAX_MEMORY_SESSIONS, SESSION_TTL_SECONDS, sessionKey, UNUSED_SESSION_TTL_SECONDS } from '../../mcp/session-store.ts';
import { afterThisTest } from '../support/gateway.ts';

const RECORD = { canElicit: false, createdAt: 0 };
const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

describe('the memory session store', () => {
  it('forgets a session never used after its initialize in ten minutes, and keeps a used one a day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = createSessionStore({ redisUrl: null, prefix: '' });
    await store.create('abandoned', RECORD);
    await store.create('used', RECORD);
    vi.advanceTimersByTime(MINUTE);
    expect(await store.get('used')).toEqual(RECORD);
    vi.advanceTimersByTime(UNUSED_SESSION_TTL_SECONDS * 1000);
    expect(await store.get('abandoned')).toBeNull();
    vi.advanceTimersByTime(SESSION_TTL_SECONDS * 1000 - 2 * MINUTE - UNUSED_SESSION_TTL_SECONDS * 1000);
    expect(await store.get('used')).toEqual(RECORD);
    vi.advanceTimersByTime(SESSION_TTL_SECONDS * 1000 + MINUTE);
    expect(await store.get('used')).toBeNull();
  });

  it(`holds at most ${MAX_MEMORY_SESSIONS} sessions, dropping the least recently used`, async () => {
    const store = createSessionStore({ redisUrl: null, prefix: '' });
    for (let i = 0; i < MAX_MEMORY_SESSIONS; i++) await store.create(`s${i}`, RECORD);
    // s0 is used again: s1 is now the least recently used.
    expect(await store.get('s0')).toEqual(RECORD);
    await store.create('newest', RECORD);
    expect(await store.get('s1')).toBeNull();
    expect(await store.get('s0')).toEqual(RECORD);
    expect(await store.get('s2')).toEqual(RECORD);
    expect(await store.get('newest')).toEqual(RECORD);
  });
});

/** A Redis store under a prefix of its own, with a client to look at what it wrote; both gone after the test. */
function redisStore() {
  const prefix = `test-${randomUUID()}:`;
  const store = createSessionStore({ redisUrl: process.env.TEST_REDIS_URL!, prefix });
  const redis = new Redis(process.env.TEST_REDIS_URL!);
  afterThisTest(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await store.dispose();
  });
  return { prefix, store, redis };
}

describe.skipIf(!process.env.TEST_REDIS_URL)('the Redis session store', () => {
  it('gives a new session ten minutes, and a day from its first use', async () => {
    const { prefix, store, redis } = redisStore();
    await store.create('one', RECORD);
    const key = `${prefix}mcp:s:${sessionKey('one')}`;
    const fresh = await redis.ttl(key);
    expect(fresh).toBeGreaterThan(0);
    expect(fresh).toBeLessThanOrEqual(UNUSED_SESSION_TTL_SECONDS);
    expect(await store.get('one')).toEqual(RECORD);
    expect(await redis.ttl(key)).toBeGreaterThan(UNUSED_SESSION_TTL_SECONDS);
  });

  it('names a session by a hash of its id, never the id, in every key and field, and still finds its followers', async () => {
    // The id is the session's bearer credential: a security review found it in keys and in orders' follower lists.
    const { prefix, store, redis } = redisStore();
    const id = `session-${randomUUID()}`;
    await store.create(id, RECORD);
    expect(await store.subscribe(id, '1001', 'uri-hash', 'sealed-uri')).toBe(true);
    expect(await store.subscribers('1001')).toEqual([{ sessionKey: sessionKey(id), uriKey: 'uri-hash', sealedUri: 'sealed-uri' }]);
    expect(await store.followed(id)).toEqual(['1001']);
    const keys = await redis.keys(`${prefix}*`);
    const fields = (await Promise.all(keys.filter((k) => k.endsWith(':o:1001')).map((k) => redis.hkeys(k)))).flat();
    expect([...keys, ...fields].filter((text) => text.includes(id))).toEqual([]);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    await store.remove(id);
    expect(await store.subscribers('1001')).toEqual([]);
  });
});
