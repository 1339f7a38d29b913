/**
 * A redelivery is answered with what it was made into: PENDING and due now (a merchant's, of a delivery to its
 * endpoint; staff's, of an outbox notification to MERCHANT_ENDPOINT), and so is a merchant's test event. Two real
 * server processes on one PostgreSQL schema and one Redis; instance A reaches PostgreSQL through a link that holds
 * what A sends for 200 ms (test/support/faulty-link.ts), B directly. Before the fix, A made it due, told the
 * dispatchers, and only then read it for its answer: B had sent it by then, and the answer said DELIVERED (each
 * case, every run). On one process the answer raced A's own dispatcher: CI once got "next attempt in 15 s" (the
 * lease's end) on PostgreSQL, a loop of the same test 1 time in 40.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { endpointDeliveries, openChargeback, postJson, startOneBehindLink, staffQuery } from '../support/instances.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'redeliver-admin';
const SITE = { VENDOR_SITE_ID: 'site_redeliver', VENDOR_API_KEY: 'redeliver-api-key-0123456789' };
const auth = { authorization: basicAuth(SITE.VENDOR_SITE_ID, SITE.VENDOR_API_KEY) };

/**
 * B, then A with its 200 ms link to PostgreSQL, on one schema and Redis; the receiver fails its first POST, and the
 * next attempt is 10 hours on: only the redelivery sends it again. `env` is given the receiver's address.
 */
async function instances(env: (receiverUrl: string) => Record<string, string> = () => ({})) {
  const receiver = await startReceiver();
  receiver.failNext(1);
  const { a, b } = await startOneBehindLink('redeliveranswer', { ...SITE, ADMIN_TOKEN: ADMIN, NOTIFY_RETRY_SCHEDULE: '0,10h', ...env(receiver.url) }, { lagMs: 200 });
  /** Opens a claim on B (its notification goes out at once) and waits for its first, failed, POST. */
  const notify = async () => {
    const order = await postJson(b.url, '/api/orders', VALID_ORDER);
    await openChargeback(b.url, ADMIN, order.body.orderNumber);
    return (await receiver.waitFor(1, 10_000))[0]!;
  };
  return { a, b, receiver, notify };
}

/** Due when A made it due (one clock: this machine's), between asking and the answer; not the end of B's lease. */
function dueWhenAsked(nextAttemptAt: string, asked: number, answer: unknown) {
  expect(Date.parse(nextAttemptAt)).toBeGreaterThanOrEqual(asked);
  expect(Date.parse(nextAttemptAt), JSON.stringify(answer)).toBeLessThanOrEqual(Date.now());
}

describe.skipIf(!DATABASE || !REDIS)(
  `a redelivery answered on an instance slower to its database than the other${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it("a merchant's says the delivery is due now, though the other instance is already sending it", { timeout: 90_000 }, async () => {
      const { a, b, receiver, notify } = await instances();
      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const deliveries = `/v1/webhooks/endpoints/${endpoint.body.id}/deliveries`;
      const first = await notify();
      const waiting = await eventually(async () => {
        const [row] = await endpointDeliveries<{ id: string; status: string; attempts: unknown[] }>(b.url, endpoint.body.id, auth);
        return row?.status === 'PENDING' && row.attempts.length === 1 ? row : null;
      }, 10_000);

      const asked = Date.now();
      const again = await postJson(a.url, `${deliveries}/${waiting.id}/redeliver`, {}, auth);
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      expect(again.body.status).toBe('PENDING');
      dueWhenAsked(again.body.nextAttemptAt, asked, again.body);

      const [, second] = await receiver.waitFor(2, 10_000);
      expect(second!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    });

    it("a merchant's test event says it is due now, though the other instance is already sending it", { timeout: 90_000 }, async () => {
      const { a, b, receiver } = await instances();
      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

      const asked = Date.now();
      const made = await postJson(a.url, `/v1/webhooks/endpoints/${endpoint.body.id}/test`, {}, auth);
      expect(made.status, JSON.stringify(made.body)).toBe(202);
      expect(made.body).toMatchObject({ eventType: 'webhook-test', status: 'PENDING', attempts: [] });
      dueWhenAsked(made.body.nextAttemptAt, asked, made.body);
      const [sent] = await receiver.waitFor(1, 10_000);
      expect(sent!.headers['webhook-id']).toBe(made.body.webhookId);
    });

    it("staff's says the notification is due now, though the other instance is already sending it", { timeout: 90_000 }, async () => {
      const { a, b, receiver, notify } = await instances((url) => ({ MERCHANT_ENDPOINT: url }));
      const first = await notify();
      const id = first.headers['webhook-id'] as string;
      await eventually(async () => {
        const { notifications } = await staffQuery(b.url, ADMIN, '{ notifications { edges { node { id status attemptCount } } } }');
        const notification = notifications.edges.map((e: { node: { id: string; status: string; attemptCount: number } }) => e.node).find((n: { id: string }) => n.id === id);
        return notification?.status === 'PENDING' && notification.attemptCount === 1;
      }, 10_000);

      const asked = Date.now();
      const { redeliverNotification: again } = await staffQuery(a.url, ADMIN, 'mutation ($id: ID!) { redeliverNotification(id: $id) { status nextAttemptAt } }', { id });
      expect(again.status).toBe('PENDING');
      dueWhenAsked(again.nextAttemptAt, asked, again);

      const [, second] = await receiver.waitFor(2, 10_000);
      expect(second!.headers['webhook-id']).toBe(id);
    });
  },
);
