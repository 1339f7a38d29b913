/**
 * What the instances agree on about a tool call (mcp/call-records.ts, docs/agents.md#sessions). Its one decision, act
 * or be cancelled: the first claim wins, on one instance (memory) and between instances (Redis, each side on a
 * connection of its own, as two instances are); mcp-cancel.test.ts shows it through the door. And the answers kept
 * for an instance that missed their publish; test/scale/redis-break.test.ts shows that through the door.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCallRecords, MAX_MEMORY_CLAIMS, RECORD_TTL_SECONDS, type CallRecords } from '../../mcp/call-records.ts';
import { afterThisTest } from '../support/gateway.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** Each side's claims: the same store in memory, two stores (two connections) on Redis. */
type Sides = () => Promise<{ canceller: CallRecords; caller: CallRecords }>;

function decidesOnce(sides: Sides): void {
  it('takes a cancel claimed first, and the call does not act', async () => {
    const { canceller, caller } = await sides();
    expect(await canceller.cancel('session', 7)).toBe(true);
    expect(await caller.act('session', 7)).toBe(false);
    // Told again (the relay repeats it), the cancel still stands.
    expect(await canceller.cancel('session', 7)).toBe(true);
  });

  it('lets a call that acts first act, and takes no cancel after it', async () => {
    const { canceller, caller } = await sides();
    expect(await caller.act('session', 7)).toBe(true);
    expect(await canceller.cancel('session', 7)).toBe(false);
  });

  it('keeps sessions and request ids apart: 7 and "7" are two requests', async () => {
    const { canceller, caller } = await sides();
    expect(await canceller.cancel('session', 7)).toBe(true);
    expect(await caller.act('session', '7')).toBe(true);
    expect(await caller.act('another session', 7)).toBe(true);
    const long = 'x'.repeat(5_000);
    expect(await canceller.cancel('session', long)).toBe(true);
    expect(await caller.act('session', long)).toBe(false);
  });

  it('decides each of many racing pairs once: exactly one side wins every request', async () => {
    const { canceller, caller } = await sides();
    await Promise.all([canceller.cancel('warm', 0), caller.act('warm', 1)]); // both connections open
    const race = async (id: number) => {
      // Sent in either order, both in flight together.
      const [cancelled, acted] = id % 2 ? await Promise.all([canceller.cancel('s', id), caller.act('s', id)]) : (await Promise.all([caller.act('s', id), canceller.cancel('s', id)])).reverse();
      return { id, cancelled, acted };
    };
    const decided = await Promise.all(Array.from({ length: 300 }, (_, id) => race(id)));
    expect(decided.filter(({ cancelled, acted }) => cancelled === acted)).toEqual([]);
  });
}

describe('call claims in memory (one instance)', () => {
  decidesOnce(async () => {
    const claims = createCallRecords({ redisUrl: null, prefix: '' });
    return { canceller: claims, caller: claims };
  });

  it('forgets a record after its lifetime, and the oldest past its bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const claims = createCallRecords({ redisUrl: null, prefix: '' });
    expect(await claims.cancel('s', 1)).toBe(true);
    vi.advanceTimersByTime(RECORD_TTL_SECONDS * 1000 - 1);
    expect(await claims.act('s', 1)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await claims.act('s', 1)).toBe(true);
    for (let id = 2; id <= MAX_MEMORY_CLAIMS + 1; id++) await claims.cancel('s', id);
    expect(await claims.act('s', 2)).toBe(true); // the oldest cancel, gone with the bound reached
    expect(await claims.act('s', MAX_MEMORY_CLAIMS + 1)).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('call claims in Redis (two instances)', () => {
  const twoInstances = async () => {
    const prefix = `claims-${randomUUID()}:`;
    const [canceller, caller] = [createCallRecords({ redisUrl: process.env.TEST_REDIS_URL!, prefix }), createCallRecords({ redisUrl: process.env.TEST_REDIS_URL!, prefix })];
    afterThisTest(async () => {
      const redis = new Redis(process.env.TEST_REDIS_URL!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await Promise.all([canceller.dispose(), caller.dispose()]);
    });
    return { canceller, caller, prefix };
  };
  decidesOnce(twoInstances);

  it('keeps a record for its lifetime under the prefix, named by the session key and the request id', async () => {
    const { canceller } = await twoInstances();
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    afterThisTest(async () => void (await redis.quit()));
    const before = new Set(await redis.keys('claims-*'));
    await canceller.cancel('a1b2', 9);
    const [key] = (await redis.keys('claims-*')).filter((k) => !before.has(k));
    expect(key).toMatch(/^claims-[0-9a-f-]+:mcp:c:a1b2:9$/u);
    expect(await redis.ttl(key!)).toBeGreaterThan(RECORD_TTL_SECONDS - 5);
  });

  it("keeps an answer for the instance that asked: it reads its questions' answers, each from its own session", async () => {
    const { canceller: answering, caller: asking, prefix } = await twoInstances();
    const answer = { sessionKey: 'a1b2', message: { jsonrpc: '2.0', id: 3, result: { action: 'accept', content: { confirm: true } } } };
    await answering.keepAnswer('inst.c1.3', answer);
    // Another session naming the same question keeps an answer of its own, which the asking session never reads.
    await answering.keepAnswer('inst.c1.3', { sessionKey: 'c3d4', message: { jsonrpc: '2.0', id: 3, result: { action: 'decline' } } });
    expect(await asking.keptAnswers([])).toEqual(new Map());
    const questions = ['inst.c1.2', 'inst.c1.3', 'other.c1.3'].map((questionId) => ({ sessionKey: 'a1b2', questionId }));
    expect(await asking.keptAnswers(questions)).toEqual(new Map([['inst.c1.3', answer]]));
    // As long as a record: longer than a question waits.
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    afterThisTest(async () => void (await redis.quit()));
    expect(await redis.ttl(`${prefix}mcp:a:a1b2:inst.c1.3`)).toBeGreaterThan(RECORD_TTL_SECONDS - 5);
  });
});

describe('answers in memory (one instance)', () => {
  it('keeps none: the bus in memory loses nothing', async () => {
    const records = createCallRecords({ redisUrl: null, prefix: '' });
    await records.keepAnswer('inst.c1.3', { sessionKey: 's', message: {} });
    expect(await records.keptAnswers([{ sessionKey: 's', questionId: 'inst.c1.3' }])).toEqual(new Map());
  });
});
