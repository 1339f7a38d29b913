/**
 * Notification delivery with several instances (issue 4): two real server processes on one PostgreSQL schema and
 * one Redis, both dispatchers running. Due rows are leased with `for update skip locked`, so each notification
 * arrives once while the receiver never fails; an instance killed while holding leased work leaves it to the
 * other once the lease runs out. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../src/notifications/dispatcher-job.ts';
import { sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { openChargeback, staffQuery } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'scale-admin';

/** The environment of instances sharing one fresh schema (dropped afterwards) and one Redis prefix. */
function sharedEnv(receiver: Receiver): Record<string, string> {
  const shared = sharedInstancesEnv('notify');
  afterThisTest(shared.cleanup);
  return { ...shared.env, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn', MERCHANT_ENDPOINT: receiver.url };
}

const staff = (base: string, query: string, variables?: Record<string, unknown>) => staffQuery(base, ADMIN, query, variables);

async function createOrder(base: string): Promise<string> {
  const response = await fetch(`${base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) });
  return ((await response.json()) as any).orderNumber;
}

/** The real trigger: staff openClaim queues one /requestforevidencenotification. */

describe.skipIf(!DATABASE || !REDIS)(
  `notification delivery on several instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('delivers 200 notifications once each with both dispatchers running', { timeout: 60_000 }, async () => {
      const receiver = await startReceiver();
      const env = sharedEnv(receiver);
      const a = await startProcess(env); // migrates first
      const b = await startProcess(env);
      const orderId = await createOrder(a.url);
      const bases = [a.url, b.url];
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(Array.from({ length: 20 }, (_, i) => openChargeback(bases[(batch + i) % 2]!, ADMIN, orderId)));
      }
      await receiver.waitFor(200, 20_000);
      await new Promise((r) => setTimeout(r, 1_000)); // a duplicate would arrive by now
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(200);
      expect(new Set(ids).size).toBe(200);
      expect(receiver.schemaErrors).toEqual([]);
      // The receiver has each request before its sender records the answer: ask until all 200 are recorded delivered.
      const delivered = async () => (await staff(b.url, '{ notifications(status: [DELIVERED]) { totalCount } }')).notifications.totalCount;
      await expect.poll(delivered, { timeout: 10_000 }).toBe(200);
    });

    it('lets instance B finish the deliveries instance A held when A was killed', { timeout: LEASE_MS + 40_000 }, async () => {
      const receiver = await startReceiver();
      const env = sharedEnv(receiver);
      const a = await startProcess(env);
      const orderId = await createOrder(a.url);
      receiver.hang(true);
      for (let i = 0; i < 5; i++) await openChargeback(a.url, ADMIN, orderId);
      await receiver.waitFor(5); // A has leased and sent all five; none is recorded
      const b = await startProcess(env);
      a.child.kill('SIGKILL');
      await a.exited;
      receiver.hang(false);
      receiver.release();

      const done = await eventually(async () => {
        const data = await staff(b.url, '{ notifications { edges { node { id status attempts { attempt statusCode } } } } }');
        const nodes = data.notifications.edges.map((e: any) => e.node);
        return nodes.length === 5 && nodes.every((n: any) => n.status === 'DELIVERED') ? nodes : null;
      }, LEASE_MS + 15_000);
      expect(done.every((n: any) => n.attempts.length === 1 && n.attempts[0].statusCode === 200)).toBe(true);
      const first = receiver.requests.slice(0, 5).map((r) => r.headers['webhook-id']).sort();
      const again = receiver.requests.slice(5).map((r) => r.headers['webhook-id']).sort();
      expect(again).toEqual(first); // the same ids, sent again by B
    });
  },
);
