/**
 * Merchant webhook deliveries on two instances (docs/merchant-webhooks.md#isolation): two real server processes on
 * one PostgreSQL schema and one Redis, both dispatching to the bootstrap site's own endpoint (no MERCHANT_ENDPOINT).
 * Deliveries are claimed by conditional update with a lease (`for update skip locked`), so each arrives once.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { openChargeback, startInstances } from '../support/instances.ts';
import { startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'scale-admin';
const SITE = 'site_scale';
const KEY = 'scale-api-key';
const auth = { authorization: basicAuth(SITE, KEY), 'content-type': 'application/json' };


describe.skipIf(!DATABASE || !REDIS)(
  `merchant webhook deliveries on several instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('delivers 200 notifications to a site endpoint once each with both dispatchers running', { timeout: 60_000 }, async () => {
      const receiver = await startReceiver();
      const { processes } = await startInstances('webhooks', { ADMIN_TOKEN: ADMIN, VENDOR_SITE_ID: SITE, VENDOR_API_KEY: KEY });
      const [a, b] = processes.map((p) => p.url) as [string, string];
      const created = await fetch(`${a}/v1/webhooks/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiver.url }) });
      expect(created.status).toBe(201);
      const endpoint = (await created.json()) as { id: string };
      const order = await fetch(`${a}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) });
      const orderId = ((await order.json()) as any).orderNumber as string;
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(Array.from({ length: 20 }, (_, i) => openChargeback([a, b][(batch + i) % 2]!, ADMIN, orderId)));
      }
      await receiver.waitFor(200, 20_000);
      await new Promise((r) => setTimeout(r, 1_000)); // a duplicate would arrive by now
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(200);
      expect(new Set(ids).size).toBe(200);
      expect(receiver.schemaErrors).toEqual([]);
      // The receiver has each request before its sender records the answer: ask until all 200 are recorded delivered.
      const delivered = async () => {
        const listed = await fetch(`${b}/v1/webhooks/endpoints/${endpoint.id}/deliveries?status=DELIVERED&limit=200`, { headers: auth });
        return ((await listed.json()) as { data: Array<{ webhookId: string; attempts: unknown[] }> }).data;
      };
      await expect.poll(async () => (await delivered()).length, { timeout: 10_000 }).toBe(200);
      const deliveries = await delivered();
      // Each with what its attempts were, should one have more than one (a CI run of 2026-12-06 saw one).
      expect(deliveries.filter((d) => d.attempts.length !== 1)).toEqual([]);
    });
  },
);
