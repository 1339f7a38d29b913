/**
 * PostgreSQL ends connections: a restart, a failover, an idle timeout in a pooler or `pg_terminate_backend` by a
 * DBA. pg then emits 'error' on the pool (an idle connection) or on the client (a connection in use between two
 * queries), and an 'error' event nobody listens to ends the Node process: before, one terminated idle connection
 * took down every instance at once. Now each instance stays up, a request whose connection was lost is answered 503
 * `unavailable` (retryable, with Retry-After) in its path's documented shape instead of 500, and the pool opens new
 * connections for the next ones (docs/operations.md#when-postgresql-goes-away). A connection that goes silent while
 * open is given up after `query_timeout`, and PostgreSQL ends its transaction after as long. The live streams across
 * such breaks: postgres-break-streams.test.ts.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { afterThisTest, basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { postJson, readiness, staffQuery, startInstances } from '../support/instances.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { until } from '../support/order-streams.ts';
import { sharedInstancesEnv } from '../support/databases.ts';
import { startProcess } from '../support/process.ts';
import { profileAccess } from '../platform/support.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const LIMITS = { RATE_LIMIT_READ: '100000', RATE_LIMIT_WRITE: '100000' };
const SITE = { VENDOR_SITE_ID: 'pgbreak_site', VENDOR_API_KEY: 'pgbreak-site-key' };
/** How long backends are terminated under traffic, and how often. */
const STORM_MS = 3_000;
const KILL_EVERY_MS = 100;

const alive = (child: { exitCode: number | null; signalCode: string | null }) => child.exitCode === null && child.signalCode === null;

/** A connection of its own that terminates every backend of `applicationName`, every KILL_EVERY_MS until stopped. */
async function terminator(applicationName: string) {
  const url = new URL(DATABASE!);
  url.searchParams.delete('schema');
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  afterThisTest(() => admin.end());
  const terminate = async () =>
    (
      await admin.query<{ n: number }>(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [applicationName],
      )
    ).rows[0]!.n;
  return { terminate };
}

describe.skipIf(!DATABASE || !REDIS)(
  `two instances while PostgreSQL ends their connections${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('stays up under traffic while its connections are terminated, answers each request 2xx or 503 unavailable, and keeps what it confirmed', async () => {
      const name = `pgbreak_${process.pid}_${Date.now()}`;
      const { processes } = await startInstances('pgbreak', async (shared) => {
        const url = new URL(shared.DATABASE_URL!);
        url.searchParams.set('application_name', name);
        return { ...LIMITS, DATABASE_URL: url.toString() };
      });
      const { terminate } = await terminator(name);
      // An idle pool first: the case that ended the process with nothing in flight.
      expect((await postJson(processes[0]!.url, '/api/orders', { ...VALID_ORDER, email: 'idle@example.com' })).status).toBe(201);
      expect(await terminate()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(processes.map(({ child }) => alive(child))).toEqual([true, true]);

      const answers: Array<{ status: number; body: any; retryAfter: string | null }> = [];
      const confirmed: Array<{ url: string; n: string; t: string; paid: boolean }> = [];
      let storming = true;
      let terminated = 0;
      const post = async (url: string, path: string, body: unknown) => {
        const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const answer = { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get('retry-after') };
        answers.push(answer);
        return answer;
      };
      const traffic = processes.flatMap(({ url }, instance) =>
        Array.from({ length: 6 }, async (_, caller) => {
          for (let i = 0; storming; i++) {
            const created = await post(url, '/api/orders', { ...VALID_ORDER, email: `c${instance}-${caller}-${i}@example.com` });
            if (created.status !== 201) continue;
            const order = { url, n: created.body.orderNumber as string, t: created.body.payToken as string, paid: false };
            confirmed.push(order);
            order.paid = (await post(url, `/api/orders/${order.n}/pay`, { t: order.t, method: 'vendor_card' })).status === 200;
          }
        }),
      );
      const storm = (async () => {
        for (const end = Date.now() + STORM_MS; Date.now() < end; ) {
          terminated += await terminate();
          await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
        }
        storming = false;
      })();
      await Promise.all([storm, ...traffic]);

      expect(processes.map(({ child }) => alive(child))).toEqual([true, true]);
      expect(terminated).toBeGreaterThan(0);
      const byStatus: Record<string, typeof answers> = {};
      for (const answer of answers) (byStatus[answer.status] ??= []).push(answer);
      expect(Object.keys(byStatus).sort()).toEqual(expect.arrayContaining(['200', '201']));
      expect(Object.keys(byStatus).filter((status) => !['200', '201', '503'].includes(status))).toEqual([]);
      // Connections were lost mid-request, and each such request was told to come back.
      expect(byStatus['503']?.length ?? 0).toBeGreaterThan(0);
      for (const { body, retryAfter } of byStatus['503'] ?? []) {
        expect(body).toEqual({ ok: false, code: 'unavailable', error: expect.any(String), retryable: true });
        expect(retryAfter).toMatch(/^\d+$/u);
      }

      // Every instance is ready again, and every order it confirmed is there, paid when the pay was confirmed.
      await until(async () => (await Promise.all(processes.map(({ url }) => readiness(url)))).every((status) => status === 200), 10_000);
      for (const order of confirmed) {
        const lookup = await fetch(`${order.url}/api/orders/${order.n}?t=${order.t}`);
        expect(lookup.status).toBe(200);
        const { status } = (await lookup.json()) as { status: string };
        if (order.paid) expect(status).toBe('received');
      }
    });

    it('answers 503 on every door while PostgreSQL cannot be reached, stores nothing, and serves again once it is back', async () => {
      let link!: Awaited<ReturnType<typeof faultyLink>>;
      const { processes } = await startInstances('pgbreaklink', async (shared) => {
        link = await faultyLink(shared.DATABASE_URL!);
        return { ...LIMITS, ...SITE, DATABASE_URL: link.url };
      });
      const [a, b] = [processes[0]!.url, processes[1]!.url];
      expect((await postJson(a, '/api/orders', VALID_ORDER)).status).toBe(201);

      link.cut();
      const late = { ...VALID_ORDER, email: 'late@example.com' };
      const created = await fetch(`${b}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(late) });
      expect(created.status).toBe(503);
      expect(created.headers.get('retry-after')).toMatch(/^\d+$/u);
      expect(await created.json()).toEqual({ ok: false, code: 'unavailable', error: expect.any(String), retryable: true });
      const viaGraphql = await postJson(a, '/graphql', {
        query: 'mutation ($input: OrderInput!) { createOrder(input: $input) { __typename ... on ApiError { code retryable } } }',
        variables: { input: late },
      });
      expect(viaGraphql.body.data.createOrder).toEqual({ __typename: 'ApiError', code: 'UNAVAILABLE', retryable: true });
      const platform = await postJson(b, '/v2/accounts/profile-access/acct-1', profileAccess(), {
        authorization: basicAuth(SITE.VENDOR_SITE_ID, SITE.VENDOR_API_KEY),
        'x-vendor-siteid': SITE.VENDOR_SITE_ID,
        'api-version': '10.3',
      });
      expect(platform).toEqual({ status: 503, body: { status: 'error', message: expect.any(String) } });
      const ready = await fetch(`${a}/ready`);
      expect(ready.status).toBe(503);
      // The driver's code says why, for the operator; nothing names the host.
      expect(((await ready.json()) as any).checks.database).toMatch(/^database unavailable \((closed|E[A-Z]+)\)$/u);
      expect((await fetch(`${a}/health`)).status).toBe(200);
      expect(processes.every(({ child }) => alive(child))).toBe(true);

      link.restore();
      await until(async () => (await readiness(a)) === 200 && (await readiness(b)) === 200, 10_000);
      // Nothing of the refused order was stored: the same email is new.
      expect((await postJson(a, '/api/orders', late)).status).toBe(201);
    });

    it('answers 503 within connect_timeout while PostgreSQL accepts connections and never answers, and serves again after', async () => {
      let link!: Awaited<ReturnType<typeof faultyLink>>;
      const { processes } = await startInstances('pgbreakstall', async (shared) => {
        link = await faultyLink(shared.DATABASE_URL!);
        const url = new URL(link.url);
        url.searchParams.set('connect_timeout', '1');
        return { ...LIMITS, DATABASE_URL: url.toString() };
      }, 1);
      const a = processes[0]!.url;
      expect((await postJson(a, '/api/orders', VALID_ORDER)).status).toBe(201);

      // A failover to an address that takes connections and never answers: before, every request waited for ever.
      link.stall();
      const late = { ...VALID_ORDER, email: 'late@example.com' };
      const answer = await fetch(`${a}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(late),
        signal: AbortSignal.timeout(15_000),
      });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ ok: false, code: 'unavailable', error: expect.any(String), retryable: true });
      expect(await readiness(a)).toBe(503);

      link.restore();
      await until(async () => (await readiness(a)) === 200, 10_000);
      expect((await postJson(a, '/api/orders', late)).status).toBe(201);
    });

    it("answers 503 within query_timeout when A's open connection goes silent mid-payment, and B pays the same order on retry", async () => {
      const shared = sharedInstancesEnv('pgbreaksilent');
      afterThisTest(shared.cleanup);
      const link = await faultyLink(shared.env.DATABASE_URL!);
      const env = { ...shared.env, ...LIMITS, LOG_LEVEL: 'warn' };
      const b = (await startProcess(env)).url;
      const silentUrl = new URL(link.url);
      silentUrl.searchParams.set('query_timeout', '2');
      const a = await startProcess({ ...env, DATABASE_URL: silentUrl.toString() });
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      const pay = { t: created.body.payToken, method: 'vendor_card' };
      const payOn = (base: string) =>
        fetch(`${base}/api/orders/${created.body.orderNumber}/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(pay),
          signal: AbortSignal.timeout(20_000), // before, A's answer (and then B's) never came
        });

      // A's payment has marked the order paid on the server, holding its row's lock, and hears nothing more.
      link.freeze(/"paid_at" = /u);
      const onA = await payOn(a.url);
      expect(onA.status).toBe(503);
      expect(await onA.json()).toEqual({ ok: false, code: 'unavailable', error: expect.any(String), retryable: true });
      // The retry on B waits for that lock until PostgreSQL ends A's idle transaction, which rolls A's change back.
      const onB = await payOn(b);
      expect([onB.status, ((await onB.json()) as any).status]).toEqual([200, 'received']);
      expect(alive(a.child)).toBe(true);
      expect(await readiness(a.url)).toBe(503);

      link.restore();
      await until(async () => (await readiness(a.url)) === 200, 15_000);
      const lookup = await fetch(`${a.url}/api/orders/${created.body.orderNumber}?t=${encodeURIComponent(pay.t)}`);
      expect(((await lookup.json()) as any).status).toBe('received');
    });
  },
);
