/**
 * Limits counted once for every instance together (docs/edge.md#rate-limits-at-a-venue, issue 15): two real server
 * processes on one PostgreSQL schema and one Redis. Before, each process counted in its own memory, so N instances
 * allowed N times the limit. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set; says so when skipped.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { postJson, startInstances } from '../support/instances.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;

describe.skipIf(!DATABASE || !REDIS)(
  `rate limits across instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('counts one client address on two instances against one limit', async () => {
      const { processes, env } = await startInstances('ratelimit', { RATE_LIMIT_WRITE: '4' });
      const [a, b] = [processes[0]!, processes[1]!];
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const base = i % 2 ? b.url : a.url;
        statuses.push((await postJson(base, '/api/orders', { ...VALID_ORDER, email: `p${i}@example.com` })).status);
      }
      // Four creates in all, whichever instance took them; the rest answered 429.
      expect(statuses.filter((s) => s === 201)).toHaveLength(4);
      expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
      const limited = await postJson(b.url, '/api/orders', { ...VALID_ORDER, email: 'late@example.com' });
      expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
      // The per-email counts are kept under a hash of the email: an operator's review read attendees' emails in
      // the key names (`…rl:create:s:debug.person@example.com:…`), as anyone with SCAN or MONITOR could.
      const redis = new Redis(REDIS!, { lazyConnect: true });
      afterThisTest(async () => void redis.disconnect());
      const keys = await redis.keys(`${env.REDIS_PREFIX}*`);
      expect(keys.some((key) => key.includes(':create:s:'))).toBe(true);
      expect(keys.filter((key) => key.includes('example.com'))).toEqual([]);
    });

    it('counts lookups of one order on both instances against one per-order limit', async () => {
      const { processes } = await startInstances('ratelimit', { RATE_LIMIT_SUBJECT_READ: '3' });
      const [a, b] = [processes[0]!, processes[1]!];
      const order = await postJson(a.url, '/api/orders', VALID_ORDER);
      expect(order.status).toBe(201);
      const { orderNumber, payToken } = order.body;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${(i % 2 ? b : a).url}/api/orders/${orderNumber}?t=${payToken}`);
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    });

    it("counts wrong payTokens on both instances against one address budget, and never the owner's lookups", async () => {
      const { processes } = await startInstances('ratelimit', { RATE_LIMIT_READ: '4' });
      const [a, b] = [processes[0]!, processes[1]!];
      const order = await postJson(a.url, '/api/orders', VALID_ORDER);
      const { orderNumber, payToken } = order.body;
      const lookup = async (on: typeof a, token: string) => (await fetch(`${on.url}/api/orders/${orderNumber}?t=${token}`)).status;
      const guesses: number[] = [];
      for (let i = 0; i < 6; i++) guesses.push(await lookup(i % 2 ? b : a, `guess-${i}`));
      // docs/edge.md#wrong-tokens: four wrong tokens in all, whichever instance took them; then 429.
      expect(guesses).toEqual([404, 404, 404, 404, 429, 429]);
      expect([await lookup(a, payToken), await lookup(b, payToken)]).toEqual([200, 200]);
    });
  },
);
