/**
 * A redelivery raced against an attempt on another instance (issue 14, defect 6;
 * docs/notifications.md#redelivery-during-an-attempt): two real server processes on one PostgreSQL schema and one
 * Redis. Instance A's dispatcher has leased a notification and its POST is held open by the receiver; staff
 * redeliver it on instance B; then the receiver answers A. A's record must not overwrite the redelivery: the
 * notification is sent again, with the same webhook-id. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { describe, expect, it } from 'vitest';
import { sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { openChargeback, staffQuery } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'race-admin';

const staff = (base: string, query: string, variables?: Record<string, unknown>) => staffQuery(base, ADMIN, query, variables);

const LIST = '{ notifications { edges { node { id status attemptCount attempts { attempt statusCode } } } } }';

describe.skipIf(!DATABASE || !REDIS)(
  `a redelivery on one instance during an attempt on another${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('is honoured: the attempt in flight is recorded and the notification is sent again', { timeout: 60_000 }, async () => {
      const receiver = await startReceiver();
      const shared = sharedInstancesEnv('race');
      afterThisTest(shared.cleanup);
      // One bootstrap site for both, as every deployment of several instances has: the claim's notification belongs
      // to it, and an instance with a site of its own would take it for another site's (docs/merchant-webhooks.md).
      const site = { VENDOR_SITE_ID: 'race-redelivery-site', VENDOR_API_KEY: 'race-redelivery-key-0123456789' };
      const env = { ...shared.env, ...site, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn', MERCHANT_ENDPOINT: receiver.url };
      const a = await startProcess(env);
      // B runs before A's attempt starts: its start-up, slow on a loaded machine, once outlasted the 10 s timeout of
      // A's held POST. Stopped (SIGSTOP) meanwhile, so that A is the one to lease the notification; once continued,
      // B's sweep finds the row leased by A and leaves it.
      const b = await startProcess(env);
      b.child.kill('SIGSTOP');
      afterThisTest(async () => void b.child.kill('SIGCONT'));
      const order = (await (await fetch(`${a.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) })).json()) as any;

      receiver.hang(true);
      await openChargeback(a.url, ADMIN, order.orderNumber);
      const [held] = await receiver.waitFor(1); // A leased it and its POST is in flight
      const id = held!.headers['webhook-id'] as string;
      b.child.kill('SIGCONT');

      const redelivered = await staff(b.url, 'mutation ($id: ID!) { redeliverNotification(id: $id) { id status } }', { id });
      expect(redelivered.redeliverNotification).toEqual({ id, status: 'PENDING' });
      receiver.hang(false);
      receiver.release(); // A's attempt is answered 200 after the redelivery

      // Well inside the 15 s lease: a redelivery honoured goes out as soon as A records its attempt.
      await eventually(() => receiver.requests.length >= 2, 10_000).catch(() => null);
      const rows = (await staff(b.url, LIST)).notifications.edges.map((e: any) => e.node);
      expect(receiver.requests.map((r) => r.headers['webhook-id']), `no attempt followed the redelivery: ${JSON.stringify(rows)}`).toEqual([id, id]);
      const done = await eventually(async () => {
        const [row] = (await staff(b.url, LIST)).notifications.edges.map((e: any) => e.node);
        return row.status === 'DELIVERED' && row.attemptCount === 2 ? row : null;
      }, 10_000);
      expect(done.attempts).toEqual([
        { attempt: 1, statusCode: 200 },
        { attempt: 2, statusCode: 200 },
      ]);
    });
  },
);
