/**
 * A subscription is listening before it says anything: on Redis, a stream's first result (the order as it is) and
 * its place in the open-subscriptions gauge come only after Redis has acknowledged its SUBSCRIBE. Instance A reaches
 * Redis through a link that holds what A sends for 300 ms (test/support/faulty-link.ts), B directly; a change made
 * on B just after A's stream has shown the order must still reach A's subscriber. Before the fix, A read and
 * answered at once while its SUBSCRIBE was still on the way, and B's event went to nobody: the countdown never
 * ended and the status never changed.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { postJson, startInstances } from '../support/instances.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { startProcess } from '../support/process.ts';
import { followOrder, until } from '../support/order-streams.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const LAG_MS = 300;

describe.skipIf(!DATABASE || !REDIS)(
  `a subscription on an instance with a slow link to Redis${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('sees a payment made on the other instance right after its first result', async () => {
      const { processes, env } = await startInstances('redislag', {}, 1);
      const b = processes[0]!;
      const a = await startProcess({ ...env, REDIS_URL: (await faultyLink(env.REDIS_URL!, { lagMs: LAG_MS })).url });
      const created = await postJson(b.url, '/api/orders', VALID_ORDER);
      expect(created.status).toBe(201);
      const vars = { n: created.body.orderNumber, t: created.body.payToken };

      // Each stream has shown the order as it is: from here on, each says it is listening.
      const seen = await followOrder(a.url, vars);
      expect(seen.tick[0]).toBe('AWAITING_PAYMENT');
      expect(seen.update[0]).toBe('AWAITING_PAYMENT');

      const paid = await postJson(b.url, `/api/orders/${vars.n}/pay`, { t: vars.t, method: 'vendor_card' });
      expect(paid.body.status).toBe('received');
      // Not a speed bound: the event crosses no lagging link (B publishes, Redis answers A at once); seconds of room.
      await until(() => seen.tick.includes('RECEIVED') && seen.update.includes('RECEIVED'), 5_000);
      expect(seen.tick.at(-1)).toBe('RECEIVED');
      expect(seen.update.at(-1)).toBe('RECEIVED');
    });
  },
);
