/**
 * Several instances serving one event: two real server processes on one PostgreSQL schema and one Redis.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both); says so when skipped.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { postJson, startInstances } from '../support/instances.ts';
import type { ServerProcess } from '../support/process.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'scale-admin';

async function twoInstances(extra: Record<string, string> = {}): Promise<[ServerProcess, ServerProcess]> {
  const { processes } = await startInstances('scale', { ADMIN_TOKEN: ADMIN, ...extra });
  return [processes[0]!, processes[1]!];
}

const post = (base: string, path: string, body: unknown) => postJson(base, path, body);

function ws(base: string, authorization?: string) {
  const client = createClient({
    url: base.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...(authorization ? { connectionParams: { authorization } } : {}),
  });
  afterThisTest(async () => client.dispose());
  return client;
}

describe.skipIf(!DATABASE || !REDIS)(
  `several instances on one PostgreSQL and one Redis${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('shows a payment made on instance B to subscribers on instance A within a second', async () => {
      const [a, b] = await twoInstances();
      const created = await post(a.url, '/api/orders', VALID_ORDER);
      const seen: Array<{ what: string; at: number; status: string }> = [];
      const client = ws(a.url);
      const vars = { n: created.body.orderNumber, t: created.body.payToken };
      const done = new Promise<void>((resolve) => {
        client.subscribe<any>(
          { query: 'subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { status final } }', variables: vars },
          { next: ({ data }) => seen.push({ what: 'tick', at: Date.now(), status: data.holdCountdown.status }), error: () => {}, complete: resolve },
        );
        client.subscribe<any>(
          { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: vars },
          { next: ({ data }) => seen.push({ what: 'update', at: Date.now(), status: data.orderUpdates.status }), error: () => {}, complete: () => {} },
        );
      });
      // Both streams start with the order as it is: once each has said so, both listen (no sleep to hope it).
      const listeningBy = Date.now() + 5_000;
      while (!['tick', 'update'].every((w) => seen.some((e) => e.what === w)) && Date.now() < listeningBy) await new Promise((r) => setTimeout(r, 20));
      expect(seen.map((e) => e.status)).not.toContain('RECEIVED');
      const paidAt = Date.now();
      const paid = await post(b.url, `/api/orders/${vars.n}/pay`, { t: vars.t, method: 'vendor_card' });
      expect(paid.body.status).toBe('received');
      await done;
      // The two streams reload the order independently: wait (bounded) until both have shown the payment.
      const until = Date.now() + 3_000;
      while (!['tick', 'update'].every((w) => seen.some((e) => e.what === w && e.status === 'RECEIVED')) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const what of ['tick', 'update']) {
        const event = seen.find((e) => e.what === what && e.status === 'RECEIVED');
        expect(event, `${what} saw RECEIVED`).toBeDefined();
        expect(event!.at - paidAt).toBeLessThan(1_000);
      }
    });

    it('charges once for 20 concurrent pays spread over both instances, and numbers orders uniquely', async () => {
      const [a, b] = await twoInstances();
      const orders = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(i % 2 ? a.url : b.url, '/api/orders', { ...VALID_ORDER, email: `p${i}@example.com` })),
      );
      const numbers = orders.map((o) => Number(o.body.orderNumber)).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 10 }, (_, i) => 1001 + i));
      const target = orders[0]!.body;
      const pays = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(i % 2 ? a.url : b.url, `/api/orders/${target.orderNumber}/pay`, { t: target.payToken, method: 'vendor_card' })),
      );
      expect(pays.every((p) => p.status === 200)).toBe(true);
      expect(pays.filter((p) => p.body.alreadyPaid === false)).toHaveLength(1);
    });

    it('makes one order for 10 concurrent creates with one email spread over both instances', async () => {
      const [a, b] = await twoInstances();
      const creates = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(i % 2 ? a.url : b.url, '/api/orders', { ...VALID_ORDER, email: i % 3 ? 'Same@Example.com' : ' same@example.com ' })),
      );
      expect(creates.filter((c) => c.status === 201)).toHaveLength(1);
      expect(creates.filter((c) => c.status === 409).every((c) => c.body.code === 'duplicate')).toBe(true);
      expect(creates.filter((c) => c.status === 409)).toHaveLength(9);
    });

    it('holds an Idempotency-Key across instances: 10 concurrent payments with one key, split over both, make one', async () => {
      const site = { VENDOR_SITE_ID: 'site_scale', VENDOR_API_KEY: 'scale-api-key-0123456789abcdef' };
      const [a, b] = await twoInstances(site);
      const headers = {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${site.VENDOR_SITE_ID}:${site.VENDOR_API_KEY}`).toString('base64')}`,
        'idempotency-key': 'scale-key-1',
      };
      const body = JSON.stringify({
        orderId: 'scale-order', amount: 1999, currency: 'USD',
        paymentMethod: { type: 'card', card: { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' } },
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const response = await fetch(`${i % 2 ? a.url : b.url}/api/payments`, { method: 'POST', headers, body });
          return { status: response.status, body: (await response.json()) as any };
        }),
      );
      // The first to claim the key runs; the nine others, on either instance, wait for its stored response.
      expect(answers.map((x) => x.status)).toEqual(Array(10).fill(201));
      const created = answers;
      expect(new Set(created.map((x) => x.body.id)).size).toBe(1);
      const staff = await fetch(`${b.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ query: `{ payment(id: "${created[0]!.body.id}") { id amount status } }` }),
      });
      expect((await staff.json()).data.payment).toMatchObject({ amount: 1999, status: 'SUCCEEDED' });
    });

    it('cancels 100 orders left to expire across both instances exactly once each, with one event each', async () => {
      const [a, b] = await twoInstances({ HOLD_SECONDS: '3' });
      const expired: string[] = [];
      const client = ws(a.url, `Bearer ${ADMIN}`);
      client.subscribe<any>(
        { query: 'subscription { orderEvents { orderNumber status } }' },
        { next: ({ data }) => data.orderEvents.status === 'CANCELLED' && expired.push(data.orderEvents.orderNumber), error: () => {}, complete: () => {} },
      );
      await subscriptionsOpen(a.url, 'orderEvents');
      const created = await Promise.all(
        Array.from({ length: 100 }, (_, i) => post(i % 2 ? a.url : b.url, '/api/orders', { ...VALID_ORDER, email: `e${i}@example.com` })),
      );
      expect(created.every((c) => c.status === 201)).toBe(true);
      const deadline = Date.now() + 15_000;
      while (expired.length < 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 1_000)); // a duplicate would arrive by now
      expect(expired).toHaveLength(100);
      expect(new Set(expired).size).toBe(100);
    });

    it('serves options and event information changed on instance A from instance B at once, its kept GraphQL answer too', async () => {
      const [a, b] = await twoInstances();
      expect((await (await fetch(`${b.url}/api/sleeve-options`)).json()).charLimit).toBe(20); // B has them cached
      // GraphQL on B: yoga, then the fast path, which keeps the answer (graphql-server/answer-cache.ts), then kept.
      const optionsOnB = async () => (await post(b.url, '/graphql', { query: '{ sleeveOptions { charLimit } }' })).body.data.sleeveOptions.charLimit;
      for (let i = 0; i < 3; i++) expect(await optionsOnB()).toBe(20);
      const staff = async (query: string) =>
        fetch(`${a.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
          body: JSON.stringify({ query }),
        });
      await staff('mutation { updateSleeveOptions(input: { sizes: [{ value: "13-inch" }], fonts: [{ value: "Block" }], threads: [{ value: "Gold", color: "#c9a227" }], charLimit: 12 }) { charLimit } }');
      await staff('mutation { setEventInfo(text: "Doors open at nine.") }');
      const until = Date.now() + 2_000;
      let charLimit = 0;
      let graphqlCharLimit = 0;
      let info = '';
      while (Date.now() < until && (charLimit !== 12 || graphqlCharLimit !== 12 || info !== 'Doors open at nine.')) {
        charLimit = (await (await fetch(`${b.url}/api/sleeve-options`)).json()).charLimit;
        graphqlCharLimit = await optionsOnB();
        info = await (await fetch(`${b.url}/llms-full.txt`)).text();
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(charLimit).toBe(12);
      expect(graphqlCharLimit).toBe(12);
      expect(info).toBe('Doors open at nine.');
    });
  },
);
