/**
 * A merchant's redeliver of a delivery whose attempt is in flight is honoured: once that attempt is recorded,
 * whatever its outcome, the delivery goes out again, with the same webhook-id (docs/merchant-webhooks.md). Two real
 * server processes on one PostgreSQL schema and one Redis; either may send the delivery, the redeliver is asked of A.
 * Before, it was left as it was ("it is being sent"): when that attempt failed (it left before the merchant fixed the
 * receiver), the next one waited for the schedule, here 10 hours. And the redeliver is decided on the delivery as it
 * is inside its transaction, locked: decided on the read before it, an attempt recorded in between (A's link holds
 * the decision until B has recorded it) left it DELIVERED and the redeliver lost.
 */
import { describe, expect, it } from 'vitest';
import { afterThisTest, basicAuth } from '../support/gateway.ts';
import { endpointDeliveries, postJson, startInstances, startOneBehindLink } from '../support/instances.ts';
import type { ServerProcess } from '../support/process.ts';
import { eventually, startReceiver, type Answer } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const SITE = { VENDOR_SITE_ID: 'site_inflight', VENDOR_API_KEY: 'in-flight-api-key-0123456789' };
const auth = { authorization: basicAuth(SITE.VENDOR_SITE_ID, SITE.VENDOR_API_KEY) };
const ENV = { ...SITE, NOTIFY_RETRY_SCHEDULE: '0,10h' };

interface Listed {
  id: string;
  webhookId: string;
  status: string;
  attemptCount: number;
  attempts: Array<{ statusCode: number | null }>;
}

/**
 * A test event held in flight at the receiver, redelivered on A, then the held POST answered `first`: the
 * receiver's requests and the delivery once it has settled.
 */
async function redeliverWhileInFlight(first: Answer) {
  const receiver = await startReceiver();
  const [a, b] = (await startInstances('inflight', ENV)).processes as [ServerProcess, ServerProcess];
  const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const path = `/v1/webhooks/endpoints/${endpoint.body.id}`;
  const list = () => endpointDeliveries<Listed>(a.url, endpoint.body.id, auth);

  receiver.hang(true);
  const made = await postJson(b.url, `${path}/test`, {}, auth);
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  await receiver.waitFor(1, 10_000); // its attempt is in flight

  const again = await postJson(a.url, `${path}/deliveries/${made.body.id}/redeliver`, {}, auth);
  expect(again.status, JSON.stringify(again.body)).toBe(202);
  expect(again.body).toMatchObject({ id: made.body.id, status: 'PENDING', attemptCount: 0 });
  receiver.hang(false);
  receiver.release(first);

  // Well inside the 15 s lease and far from the 10 h of the schedule.
  await eventually(() => receiver.requests.length >= 2, 10_000).catch(() => null);
  const sent = receiver.requests.map((r) => r.headers['webhook-id']);
  const settled = await eventually(async () => {
    const [row] = await list();
    return row && row.status !== 'PENDING' ? row : null;
  }, 10_000).catch(async () => (await list())[0]!);
  return { sent, settled, webhookId: made.body.webhookId as string };
}

describe.skipIf(!DATABASE || !REDIS)(
  `a merchant's redeliver while the delivery's attempt is in flight${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('sends it again at once when that attempt fails', { timeout: 90_000 }, async () => {
      const { sent, settled, webhookId } = await redeliverWhileInFlight({ status: 500 });
      expect(sent, `no attempt followed the redeliver: ${JSON.stringify(settled)}`).toEqual([webhookId, webhookId]);
      expect(settled).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
      expect(settled.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    });

    it('sends it again when that attempt succeeds, as asked', { timeout: 90_000 }, async () => {
      const { sent, settled, webhookId } = await redeliverWhileInFlight({ status: 200 });
      expect(sent, `no attempt followed the redeliver: ${JSON.stringify(settled)}`).toEqual([webhookId, webhookId]);
      expect(settled).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
      expect(settled.attempts.map((attempt) => attempt.statusCode)).toEqual([200, 200]);
    });

    it('is not lost when that attempt is recorded while the redeliver is being decided', { timeout: 90_000 }, async () => {
      const receiver = await startReceiver();
      const { a, b, link } = await startOneBehindLink('inflightrace', ENV);
      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      const path = `/v1/webhooks/endpoints/${endpoint.body.id}`;
      const listOn = (base: string) => endpointDeliveries<Listed>(base, endpoint.body.id, auth);

      // B sends it: A, stopped meanwhile, cannot lease it.
      a.child.kill('SIGSTOP');
      afterThisTest(async () => void a.child.kill('SIGCONT'));
      receiver.hang(true);
      const made = await postJson(b.url, `${path}/test`, {}, auth);
      await receiver.waitFor(1, 10_000);
      a.child.kill('SIGCONT');

      // A reads it in flight, then its decision (the first statement of its transaction) is held until B has
      // recorded the attempt, DELIVERED.
      const decision = /from "webhook_deliveries" where "id" = \$1 for update|update "webhook_deliveries" set "next_attempt_at"/u;
      link.pause(decision);
      const again = postJson(a.url, `${path}/deliveries/${made.body.id}/redeliver`, {}, auth);
      await eventually(() => decision.test(link.held()), 10_000);
      receiver.hang(false);
      receiver.release();
      await eventually(async () => (await listOn(b.url))[0]?.status === 'DELIVERED', 10_000);
      link.resume();
      expect((await again).status).toBe(202);

      await eventually(() => receiver.requests.length >= 2, 10_000).catch(() => null);
      const [row] = await listOn(b.url);
      expect(receiver.requests.map((r) => r.headers['webhook-id']), `no attempt followed the redeliver: ${JSON.stringify(row)}`).toEqual([made.body.webhookId, made.body.webhookId]);
      await eventually(async () => (await listOn(b.url))[0]?.attemptCount === 2, 10_000);
    });
  },
);
