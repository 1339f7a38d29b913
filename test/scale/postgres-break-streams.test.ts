/**
 * Live streams on an instance that cannot read PostgreSQL for a while (its link cut) while the other goes on: an
 * event still arrives through Redis, but the order, board or delivery it announces cannot be read. Before, the failed
 * read was an unhandled rejection that ended the process (an order's stream), or the event was skipped for good (a
 * staff delivery stream). Now each stream keeps its place, and once the database answers it reads again what it shows,
 * or sends what changed meanwhile (src/events/read-recovery.ts, docs/graphql.md#subscriptions).
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { openChargeback, postJson, staffQuery } from '../support/instances.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { followOrder, followOrderEvents, record, until } from '../support/order-streams.ts';
import { sharedInstancesEnv } from '../support/databases.ts';
import { startProcess } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const LIMITS = { RATE_LIMIT_READ: '100000', RATE_LIMIT_WRITE: '100000' };
const ADMIN = 'pgstreams-admin';
const SITE = { VENDOR_SITE_ID: 'pgstreams_site', VENDOR_API_KEY: 'pgstreams-site-key' };

const alive = (child: { exitCode: number | null; signalCode: string | null }) => child.exitCode === null && child.signalCode === null;

describe.skipIf(!DATABASE || !REDIS)(
  `live streams on an instance cut off from PostgreSQL${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it("sends A's staff delivery streams what B delivered while A could not read PostgreSQL, once A reads again", async () => {
      const shared = sharedInstancesEnv('pgbreakstaff');
      afterThisTest(shared.cleanup);
      const merchant = await startReceiver();
      const link = await faultyLink(shared.env.DATABASE_URL!);
      const env = { ...shared.env, ...LIMITS, ...SITE, LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN, MERCHANT_ENDPOINT: merchant.url };
      const b = (await startProcess(env)).url;
      const a = (await startProcess({ ...env, DATABASE_URL: link.url })).url;
      const attempted = record(a, 'subscription { notificationEvents { status } }', (data) => data.notificationEvents.status, ADMIN);
      const order = await postJson(b, '/api/orders', VALID_ORDER);
      await subscriptionsOpen(a, 'notificationEvents'); // A's stream listens

      link.cut();
      await openChargeback(b, ADMIN, order.body.orderNumber);
      await merchant.waitFor(1, 10_000); // delivered by B, whose link is whole
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(attempted).toEqual([]); // A heard of the attempt through Redis and could not read it
      link.restore();

      // Before, the stream had skipped it for good; the list showed it.
      await until(() => attempted.includes('DELIVERED'), 15_000);
      expect(attempted).toEqual(['DELIVERED']);
    });

    it("keeps A's live streams through a break in A's link to PostgreSQL, and shows what changed meanwhile once A reads again", async () => {
      const shared = sharedInstancesEnv('pgbreaklive');
      afterThisTest(shared.cleanup);
      const link = await faultyLink(shared.env.DATABASE_URL!);
      const env = { ...shared.env, ...LIMITS, LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN };
      const b = (await startProcess(env)).url;
      const a = await startProcess({ ...env, DATABASE_URL: link.url });
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const vars = { n: created.body.orderNumber, t: created.body.payToken };
      const seen = await followOrder(a.url, vars);
      const console = followOrderEvents(a.url, ADMIN);
      const boards = record(a.url, 'subscription { pickupBoard { board { orderNumber } } }', (data) => data.pickupBoard.board.map((e: any) => e.orderNumber));
      await until(() => boards.length > 0, 10_000);
      await subscriptionsOpen(a.url, 'orderEvents'); // the console listens too

      // One display's client, whose socket carries a stream already running when a new one cannot start.
      const display = createClient({ url: a.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
      afterThisTest(async () => display.dispose());
      const closes: number[] = [];
      display.on('closed', (event) => closes.push((event as CloseEvent).code));
      const running: string[] = [];
      display.subscribe<any>(
        { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: vars },
        { next: ({ data }) => running.push(data.orderUpdates.status), error: () => {}, complete: () => {} },
      );
      await until(() => running.length > 0, 10_000);

      link.cut();
      // A stream that cannot read its starting state answers with the error and completes, as an unknown order's
      // does; the socket and its other stream go on.
      const refused = await new Promise<unknown>((settle) =>
        display.subscribe<any>({ query: 'subscription { pickupBoard { change } }' }, { next: settle, error: settle, complete: () => settle('completed') }),
      );
      expect(refused).toEqual({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAVAILABLE' }) })] });
      expect((await postJson(b, `/api/orders/${vars.n}/pay`, { t: vars.t, method: 'vendor_card' })).status).toBe(200);
      const another = await postJson(b, '/api/orders', { ...VALID_ORDER, email: 'another@example.com' });
      const m = another.body.orderNumber;
      expect((await postJson(b, `/api/orders/${m}/pay`, { t: another.body.payToken, method: 'vendor_card' })).status).toBe(200);
      await staffQuery(b, ADMIN, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { status } }', { n: m });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // A heard every change through Redis and could read none of them.
      expect(alive(a.child)).toBe(true);
      expect([[...new Set(seen.tick)], seen.update, console, boards]).toEqual([['AWAITING_PAYMENT'], ['AWAITING_PAYMENT'], [], [[]]]);
      link.restore();

      await until(() => seen.tick.includes('RECEIVED') && seen.update.includes('RECEIVED') && console.includes(`${m} READY`) && boards.length > 1, 10_000);
      expect(seen.tick.at(-1)).toBe('RECEIVED');
      expect(seen.update.at(-1)).toBe('RECEIVED');
      await until(() => running.includes('RECEIVED'), 5_000);
      expect([running, closes]).toEqual([['AWAITING_PAYMENT', 'RECEIVED'], []]);
      expect(console).toEqual(expect.arrayContaining([`${vars.n} RECEIVED`, `${m} READY`]));
      expect(boards.at(-1)).toEqual([m]);
      // And the streams follow events again.
      await staffQuery(b, ADMIN, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: IN_PROGRESS) { status } }', { n: vars.n });
      await until(() => seen.update.includes('IN_PROGRESS'), 5_000);
      expect(seen.update.at(-1)).toBe('IN_PROGRESS');
    });
  },
);
