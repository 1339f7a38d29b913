/**
 * A merchant's redelivery is answered with the delivery as the redelivery left it: PENDING and due now. Two real
 * server processes on one PostgreSQL schema and one Redis; instance A reaches PostgreSQL through a link that holds
 * what A sends for 200 ms (test/support/faulty-link.ts), B directly. Before the fix, A made the delivery due,
 * told the dispatchers, and only then read the delivery for its answer: B had leased it by then, and the answer said
 * the next attempt was 15 s away (the lease's end) while it was being sent. CI saw the same on one process, 1 run in
 * 40 on PostgreSQL, A's own dispatcher being quicker than its read.
 */
import { describe, expect, it } from 'vitest';
import { sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest, basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { postJson, staffQuery } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'redeliver-admin';
const SITE = { VENDOR_SITE_ID: 'site_redeliver', VENDOR_API_KEY: 'redeliver-api-key-0123456789' };
const auth = { authorization: basicAuth(SITE.VENDOR_SITE_ID, SITE.VENDOR_API_KEY) };
const OPEN = 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 9.5, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["INVOICE"] }) { claimId } }';

describe.skipIf(!DATABASE || !REDIS)(
  `a redelivery answered on an instance slower to its database than the other${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('says the delivery is due now, though the other instance is already sending it', { timeout: 90_000 }, async () => {
      const receiver = await startReceiver();
      const shared = sharedInstancesEnv('redeliveranswer');
      afterThisTest(shared.cleanup);
      // The first attempt fails and the next is 10 hours on: only the redelivery sends it again.
      const env = { ...shared.env, ...SITE, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn', NOTIFY_RETRY_SCHEDULE: '0,10h' };
      const b = await startProcess(env);
      const a = await startProcess({ ...env, DATABASE_URL: (await faultyLink(shared.env.DATABASE_URL!, { lagMs: 200 })).url });

      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const deliveries = `/v1/webhooks/endpoints/${endpoint.body.id}/deliveries`;
      const order = await postJson(b.url, '/api/orders', VALID_ORDER);
      receiver.failNext(1);
      await staffQuery(b.url, ADMIN, OPEN, { o: order.body.orderNumber, d: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10) });
      const [first] = await receiver.waitFor(1, 10_000);
      const waiting = await eventually(async () => {
        const listed = (await (await fetch(`${b.url}${deliveries}`, { headers: auth })).json()) as { data: Array<{ id: string; status: string; attempts: unknown[] }> };
        const [row] = listed.data;
        return row?.status === 'PENDING' && row.attempts.length === 1 ? row : null;
      }, 10_000);

      const asked = Date.now();
      const again = await postJson(a.url, `${deliveries}/${waiting.id}/redeliver`, {}, auth);
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      expect(again.body.status).toBe('PENDING');
      // Due at the moment A made it due, between asking and the answer; not B's lease.
      expect(Date.parse(again.body.nextAttemptAt)).toBeGreaterThanOrEqual(asked - 1_000);
      expect(Date.parse(again.body.nextAttemptAt), JSON.stringify(again.body)).toBeLessThanOrEqual(Date.now());

      const [, second] = await receiver.waitFor(2, 10_000);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    });
  },
);
