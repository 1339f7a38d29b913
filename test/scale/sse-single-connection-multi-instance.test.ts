/**
 * graphql-sse's single connection mode on two real instances sharing PostgreSQL and Redis, as behind a proxy that
 * sends each request to the next instance (nginx's least_conn does no better for a client): graphql-sse's own
 * client reserves its stream on one instance, opens it on the other, posts each operation and its DELETE to
 * whichever comes next, and still sees every result. Graphql-sse's own handler keeps all of that in one process.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { postJson, readiness, startInstances } from '../support/instances.ts';
import { follow, rawStream, singleConnectionClient } from '../support/sse-single-connection.ts';
import { until } from '../support/order-streams.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const UPDATES = 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }';

describe.skipIf(!DATABASE || !REDIS)(
  `graphql-sse's single connection mode on two instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('serves one stream across both: reserved on one, opened on the other, operations on either', async () => {
      const { processes } = await startInstances('sse_single', { ADMIN_TOKEN: 'sse-admin' });
      const [a, b] = [processes[0]!, processes[1]!];
      // Every request to the next instance, in turn; the client sees one address.
      const sentTo: Array<{ method: string; instance: string }> = [];
      let turn = 0;
      const roundRobin: typeof fetch = (input, init) => {
        const instance = turn++ % 2 === 0 ? a.url : b.url;
        sentTo.push({ method: init?.method ?? 'GET', instance });
        return fetch(String(input).replace('http://gateway.test', instance), init);
      };
      const client = singleConnectionClient('http://gateway.test/graphql', roundRobin);
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const updates = follow(client, { query: UPDATES, variables: { n: created.body.orderNumber, t: created.body.payToken } });
      const seen = (status: string) => (all: typeof updates.results) => all.some((r) => r.data?.orderUpdates.status === status);
      await updates.until(seen('AWAITING_PAYMENT'), 10_000);
      const variables = { n: created.body.orderNumber, t: created.body.payToken };
      const paid = await postJson(b.url, `/api/orders/${variables.n}/pay`, { t: variables.t, method: 'vendor_card' });
      expect(paid.body.status).toBe('received');
      await updates.until(seen('RECEIVED'), 10_000);
      // The reservation, the stream and the operation each went to a different instance than the one before.
      expect(sentTo.slice(0, 3).map((s) => s.method)).toEqual(['PUT', 'GET', 'POST']);
      expect(new Set(sentTo.slice(0, 2).map((s) => s.instance)).size).toBe(2);

      await updates.stop();
      expect(sentTo.at(-1)!.method).toBe('DELETE');
    });

    it('stops an operation running on one instance by a DELETE sent to the other', async () => {
      const { processes } = await startInstances('sse_stop', { ADMIN_TOKEN: 'sse-admin' });
      const [a, b] = [processes[0]!, processes[1]!];
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const stream = await rawStream(a.url, b.url);
      expect(stream.status).toBe(200);
      const variables = { n: created.body.orderNumber, t: created.body.payToken };
      expect((await stream.post(a.url, 'watch', { query: UPDATES, variables })).status).toBe(202);
      await stream.until('AWAITING_PAYMENT');
      expect(stream.text()).not.toContain('event: complete');
      expect((await fetch(`${b.url}/graphql?operationId=watch`, { method: 'DELETE', headers: stream.headers })).status).toBe(200);
      await stream.until('event: complete');
      expect(stream.text()).toContain('event: complete\ndata: {"id":"watch"}\n\n');
      await stream.close();
    });

    it('ends its streams when Redis is back after a break, so the client resubscribes and sees what changed meanwhile', async () => {
      const link = await faultyLink(REDIS!);
      const { processes } = await startInstances('sse_break', { REDIS_URL: link.url, ADMIN_TOKEN: 'sse-admin' });
      const [a, b] = [processes[0]!, processes[1]!];
      // The stream on A, the operation on B: its events cross Redis.
      let turn = 0;
      const alternate: typeof fetch = (input, init) => fetch(String(input).replace('http://gateway.test', turn++ % 2 === 0 ? a.url : b.url), init);
      const client = singleConnectionClient('http://gateway.test/graphql', alternate, { retryAttempts: 5 });
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const variables = { n: created.body.orderNumber, t: created.body.payToken };
      const updates = follow(client, { query: UPDATES, variables });
      const seen = (status: string) => (all: typeof updates.results) => all.some((r) => r.data?.orderUpdates.status === status);
      await updates.until(seen('AWAITING_PAYMENT'), 10_000);

      link.cut();
      await until(async () => (await readiness(a.url)) === 503 && (await readiness(b.url)) === 503, 10_000);
      // Paid while Redis is away: the event is lost on the way.
      expect((await postJson(b.url, `/api/orders/${variables.n}/pay`, { t: variables.t, method: 'vendor_card' })).body.status).toBe('received');
      link.restore();
      // Before, the stream stayed open and silent, and the client showed "awaiting payment" for good.
      await updates.until(seen('RECEIVED'), 15_000);
      await updates.stop();
    });

    it("ends the stream on A without `complete` when B, running its operation, is stopped: the client comes back", async () => {
      const { processes } = await startInstances('sse_drain', { ADMIN_TOKEN: 'sse-admin' });
      const [a, b] = [processes[0]!, processes[1]!];
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const stream = await rawStream(a.url);
      const variables = { n: created.body.orderNumber, t: created.body.payToken };
      expect((await stream.post(b.url, 'watch', { query: UPDATES, variables })).status).toBe(202);
      await stream.until('AWAITING_PAYMENT');
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
      // Before, B sent the operation's `complete`: graphql-sse's client took the subscription as finished, for good.
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`A's stream is still open: ${stream.text()}`)), 10_000).unref());
      await Promise.race([stream.ended, late]);
      expect(stream.text()).not.toContain('event: complete');
    });
  },
);
