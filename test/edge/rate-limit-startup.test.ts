/**
 * With REDIS_URL the limits are counted in Redis, so every instance counts together; while Redis cannot answer they
 * are counted in this process (docs/edge.md#rate-limits-at-a-venue). A gateway used to answer its first requests
 * before its limiter's Redis connection was ready: they were counted in memory, and the next ones in Redis from
 * zero, so a client got its limit twice over at each start (the full suite saw a third create of a limit of two let
 * through). createGateway now waits for that connection, a bounded while.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { afterThisTest, testGateway, VALID_ORDER } from '../support/gateway.ts';

const REDIS = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS)(`limits shared in Redis${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  it("count a gateway's very first request in Redis, where the next ones are counted", async () => {
    const prefix = `startup-${randomUUID()}:`;
    const redis = new Redis(REDIS!);
    afterThisTest(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    const t = await testGateway({ env: { DATABASE_URL: ':memory:', REDIS_URL: REDIS!, REDIS_PREFIX: prefix, RATE_LIMIT_WRITE: '1' } });
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'first@example.com' })).status).toBe(201);
    expect(await redis.keys(`${prefix}rl*`)).not.toEqual([]);
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'second@example.com' })).status).toBe(429);
  });
});
