/**
 * A break in Redis loses what was published during it, on every instance: ioredis queues a PUBLISH while it
 * reconnects and drops it after three tries. Two instances reach Redis through one link that the test cuts
 * (test/support/faulty-link.ts), as a Redis restart would. During the break an order is paid and the sleeve options
 * change on B; once Redis is back, A's subscribers show the payment and A answers with the new options, by reading
 * again what they show (bus.onResume, docs/graphql.md#subscriptions), and a change made after the break reaches
 * them as an event; an MCP call on A hears the answer to its question that was posted to B meanwhile, and hears
 * one B could not keep in Redis (kept for an asker that misses the publish, and published all the same). Before, A's
 * countdown never ended, its order stayed "awaiting payment" and A kept accepting and serving the old options until
 * the next change. The link refuses each reconnection at once while cut, which also
 * caught ioredis calling a closed connection ready (redis/ioredis#2099): the subscriber then heard nothing again.
 */
import { describe, expect, it, vi } from 'vitest';
import { afterThisTest, basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { sharedInstancesEnv } from '../support/databases.ts';
import { startProcess } from '../support/process.ts';
import { openChargeback, postJson, readiness, staffQuery, startInstances } from '../support/instances.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { startReceiver } from '../support/receiver.ts';
import { mcpClient, rawSession, type McpClientOptions } from '../agents/mcp-support.ts';
import { followOrder, followOrderEvents, record, until } from '../support/order-streams.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';
import { randomBytes } from 'node:crypto';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'break-admin';
/** Longer than ioredis's three reconnection tries (50, 100, 150 ms apart): what B publishes now is lost. */
const BREAK_MS = 2_000;
const SITE = 'site_break';
const KEY = 'break-api-key';

const charLimitAt = async (base: string) => ((await (await fetch(`${base}/api/sleeve-options`)).json()) as { charLimit: number }).charLimit;

/**
 * Two instances of one event for an MCP call asked on A and answered on B, `linked` reaching Redis through `link`.
 * `ask` calls create_order on A with `elicit` as the client's answerer (all but initialize and the call go to B) and
 * resolves with the result, or rejects when the call is not answered within 20 s.
 */
async function askedOnAnsweredOn(label: string, linked: 'A' | 'B') {
  const shared = sharedInstancesEnv(label);
  afterThisTest(shared.cleanup);
  const link = await faultyLink(REDIS!);
  const env = { ...shared.env, LOG_LEVEL: 'warn', VAULT_KEY: randomBytes(32).toString('base64') };
  const b = await startProcess(linked === 'B' ? { ...env, REDIS_URL: link.url } : env);
  const a = await startProcess(linked === 'A' ? { ...env, REDIS_URL: link.url } : env);
  const route = (method: string, body: unknown) => (method === 'POST' && ['initialize', 'tools/call'].includes((body as { method?: string })?.method ?? '') ? a.url : b.url);
  const ask = async (elicit: McpClientOptions['elicit']) => {
    const agent = await mcpClient(a.url, { route, elicit });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the call was not answered within 20 s of the question')), 20_000)));
    try {
      return { result: await Promise.race([agent.call('create_order', { ...VALID_ORDER }), waited]), agent };
    } finally {
      clearTimeout(timer);
    }
  };
  return { a, b, link, ask };
}

describe.skipIf(!DATABASE || !REDIS)(
  `two instances across a break in Redis${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('shows on A what changed on B while Redis was away: to its displays, staff and options streams, and in its own options', async () => {
      const link = await faultyLink(REDIS!);
      const { processes } = await startInstances('redisbreak', { REDIS_URL: link.url, ADMIN_TOKEN: ADMIN });
      const [a, b] = [processes[0]!, processes[1]!];
      const console = followOrderEvents(a.url, ADMIN);
      const boards = record(a.url, 'subscription { pickupBoard { board { orderNumber } } }', (data) => data.pickupBoard.board.map((e: any) => e.orderNumber));
      const limits = record(a.url, 'subscription { sleeveOptionsChanged { charLimit } }', (data) => data.sleeveOptionsChanged.charLimit);
      const created = await postJson(a.url, '/api/orders', VALID_ORDER);
      expect(created.status).toBe(201);
      const vars = { n: created.body.orderNumber, t: created.body.payToken };
      // Each is listening: the console has had an event, the board and the options their first state.
      await until(() => console.includes(`${vars.n} AWAITING_PAYMENT`) && boards.length > 0 && limits.length > 0, 10_000);
      expect(boards).toEqual([[]]);
      const limitBefore = await charLimitAt(a.url); // A keeps the set in memory from here

      const seen = await followOrder(a.url, vars);
      expect([seen.tick, seen.update]).toEqual([['AWAITING_PAYMENT'], ['AWAITING_PAYMENT']]);

      link.cut();
      // Both instances know Redis is away (their readiness says so) before anything changes.
      await until(async () => (await readiness(a.url)) === 503 && (await readiness(b.url)) === 503, 10_000);
      const paid = await postJson(b.url, `/api/orders/${vars.n}/pay`, { t: vars.t, method: 'vendor_card' });
      expect(paid.body.status).toBe('received');
      // Another order made, paid and made ready: it belongs on A's pickup board.
      const another = await postJson(b.url, '/api/orders', { ...VALID_ORDER, email: 'another@example.com' });
      const m = another.body.orderNumber;
      expect((await postJson(b.url, `/api/orders/${m}/pay`, { t: another.body.payToken, method: 'vendor_card' })).status).toBe(200);
      await staffQuery(b.url, ADMIN, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { status } }', { n: m });
      const options = await staffQuery(b.url, ADMIN, 'mutation ($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { charLimit } }', {
        input: { sizes: [{ value: '13-inch' }], fonts: [{ value: 'Block' }], threads: [{ value: 'gold' }], charLimit: limitBefore - 1 },
      });
      expect(options.updateSleeveOptions.charLimit).toBe(limitBefore - 1);
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      expect(seen.update).toEqual(['AWAITING_PAYMENT']); // nothing came through the break
      expect(console).toEqual([`${vars.n} AWAITING_PAYMENT`]);
      expect([boards, limits]).toEqual([[[]], [limitBefore]]);
      link.restore();

      await until(async () => (await readiness(a.url)) === 200 && (await readiness(b.url)) === 200, 15_000);
      await until(() => seen.tick.includes('RECEIVED') && seen.update.includes('RECEIVED'), 10_000);
      expect(seen.tick.at(-1)).toBe('RECEIVED');
      expect(seen.update.at(-1)).toBe('RECEIVED');
      expect(await charLimitAt(a.url)).toBe(limitBefore - 1);
      // A's staff console learns of both orders changed during the break, its pickup display shows the ready one, and
      // its options stream the new set.
      await until(() => console.includes(`${vars.n} RECEIVED`) && console.includes(`${m} READY`) && boards.length > 1 && limits.length > 1, 5_000);
      expect(console).toEqual(expect.arrayContaining([`${vars.n} RECEIVED`, `${m} READY`]));
      expect(boards.at(-1)).toEqual([m]);
      expect(limits.at(-1)).toBe(limitBefore - 1);

      // And A hears again: a change made on B after the break reaches A's subscriber as an event.
      await staffQuery(b.url, ADMIN, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: IN_PROGRESS) { status } }', { n: vars.n });
      await until(() => seen.update.includes('IN_PROGRESS'), 5_000);
      expect(seen.update.at(-1)).toBe('IN_PROGRESS');
    });

    it('delivers a notification queued on B while Redis was away once it is back, not at the next minute poll', async () => {
      const receiver = await startReceiver();
      const link = await faultyLink(REDIS!);
      const { processes } = await startInstances('redisbreakhooks', { REDIS_URL: link.url, ADMIN_TOKEN: ADMIN, VENDOR_SITE_ID: SITE, VENDOR_API_KEY: KEY });
      const [a, b] = [processes[0]!.url, processes[1]!.url];
      const headers = { authorization: basicAuth(SITE, KEY), 'content-type': 'application/json' };
      const endpoint = await fetch(`${a}/v1/webhooks/endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url }) });
      expect(endpoint.status).toBe(201);
      const order = await postJson(a, '/api/orders', VALID_ORDER);

      link.cut();
      await until(async () => (await readiness(a)) === 503 && (await readiness(b)) === 503, 10_000);
      await openChargeback(b, ADMIN, order.body.orderNumber);
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      expect(receiver.requests).toHaveLength(0); // its announcement was lost with the break
      link.restore();

      // The dispatchers' safety poll is a minute away; the sweep after the break is not.
      await receiver.waitFor(1, 15_000);
      expect(receiver.requests[0]!.path).toBe('/requestforevidencenotification');
    });

    it("shows on both instances what A changed while only A's publishing connection was broken", async () => {
      const shared = sharedInstancesEnv('redisbreakpub');
      afterThisTest(shared.cleanup);
      const link = await faultyLink(REDIS!);
      const env = { ...shared.env, LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN };
      const b = (await startProcess(env)).url;
      const a = (await startProcess({ ...env, REDIS_URL: link.url })).url;
      const created = await postJson(a, '/api/orders', VALID_ORDER); // A's publishing connection has published
      const vars = { n: created.body.orderNumber, t: created.body.payToken };
      const [onA, onB] = [await followOrder(a, vars), await followOrder(b, vars)];
      const console = followOrderEvents(b, ADMIN);
      await subscriptionsOpen(b, 'orderEvents'); // the console listens too

      // Only the connection that has sent a PUBLISH: every subscriber, A's included, stays connected throughout.
      link.cut(/PUBLISH/iu);
      expect((await postJson(a, `/api/orders/${vars.n}/pay`, { t: vars.t, method: 'vendor_card' })).body.status).toBe('received');
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      expect([onA.update, onB.update, console]).toEqual([['AWAITING_PAYMENT'], ['AWAITING_PAYMENT'], []]); // the PUBLISH was lost
      link.restore();

      // Before, neither display ever showed the payment (until the next change of that order).
      await until(() => [onA.update, onB.update, onA.tick, onB.tick].every((seen) => seen.includes('RECEIVED')) && console.length > 0, 15_000);
      expect([onA.update.at(-1), onB.update.at(-1), onA.tick.at(-1), onB.tick.at(-1)]).toEqual(['RECEIVED', 'RECEIVED', 'RECEIVED', 'RECEIVED']);
      expect(console).toEqual([`${vars.n} RECEIVED`]);
    });

    it("sends A's staff delivery streams what B delivered, and disabled, while A's link to Redis was cut", async () => {
      const shared = sharedInstancesEnv('redisbreakstaff');
      afterThisTest(shared.cleanup);
      const [ok, gone] = [await startReceiver(), await startReceiver()];
      gone.failNext(1, { status: 410 });
      const link = await faultyLink(REDIS!);
      const env = { ...shared.env, LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN, VENDOR_SITE_ID: SITE, VENDOR_API_KEY: KEY, MERCHANT_ENDPOINT: ok.url };
      const b = (await startProcess(env)).url;
      const a = (await startProcess({ ...env, REDIS_URL: link.url })).url;
      const headers = { authorization: basicAuth(SITE, KEY), 'content-type': 'application/json' };
      for (const url of [ok.url, gone.url]) expect((await fetch(`${b}/v1/webhooks/endpoints`, { method: 'POST', headers, body: JSON.stringify({ url }) })).status).toBe(201);
      const attempted = record(a, 'subscription { notificationEvents { status } }', (data) => data.notificationEvents.status, ADMIN);
      const deliveries = record(a, 'subscription { webhookDeliveries { status } }', (data) => data.webhookDeliveries.status, ADMIN);
      const disabled = record(a, 'subscription { webhookEndpointDisabled { url } }', (data) => data.webhookEndpointDisabled.url, ADMIN);
      // Another site's view of the deliveries: the replay keeps to the stream's filter.
      const elsewhere = record(a, 'subscription { webhookDeliveries(siteId: "site_other") { status } }', (data) => data.webhookDeliveries.status, ADMIN);
      const order = await postJson(b, '/api/orders', VALID_ORDER);
      // A's four streams listen.
      for (const [field, count] of [['notificationEvents', 1], ['webhookDeliveries', 2], ['webhookEndpointDisabled', 1]] as const) await subscriptionsOpen(a, field, count);

      link.cut();
      await until(async () => (await readiness(a)) === 503, 10_000);
      await openChargeback(b, ADMIN, order.body.orderNumber);
      // B's dispatchers hear of it (B's link is whole) and deliver: to MERCHANT_ENDPOINT and the site's endpoint at
      // `ok`, and to the one at `gone`, which answers 410 and is disabled.
      await ok.waitFor(2, 10_000);
      await gone.waitFor(1, 10_000);
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      expect([attempted, deliveries, disabled]).toEqual([[], [], []]);
      link.restore();

      // Before, A's staff screens never heard of any of it; the lists showed it.
      // The one at `gone` waits, PENDING, for its endpoint to be recovered.
      await until(() => attempted.includes('DELIVERED') && deliveries.includes('DELIVERED') && deliveries.includes('PENDING') && disabled.length > 0, 15_000);
      expect([attempted.at(-1), [...new Set(deliveries)].sort(), disabled, elsewhere]).toEqual(['DELIVERED', ['DELIVERED', 'PENDING'], [gone.url], []]);
    });

    it('tells an MCP client following an order on A that it changed on B while Redis was away', async () => {
      const link = await faultyLink(REDIS!);
      const { processes } = await startInstances('redisbreakmcp', { REDIS_URL: link.url, VAULT_KEY: randomBytes(32).toString('base64') });
      const [a, b] = [processes[0]!.url, processes[1]!.url];
      const agent = await mcpClient(a);
      await agent.streamOpen;
      const created = await postJson(a, '/api/orders', VALID_ORDER);
      const { orderNumber, payToken } = created.body;
      const uri = `sleeve://orders/${orderNumber}?t=${payToken}`;
      await agent.client.subscribeResource({ uri });

      link.cut();
      await until(async () => (await readiness(a)) === 503 && (await readiness(b)) === 503, 10_000);
      expect((await postJson(b, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      link.restore();

      // Once or twice: B's "publishes were lost" and A's own resubscription each run the resume handlers, and which
      // comes first depends on timing (docs/graphql.md#subscriptions: "the handlers run twice"). A second
      // resources/updated only makes the client read the order again. On 2026-11-30 a faster host got both within
      // one 20 ms poll, and this line, which expected exactly one, failed.
      expect([...new Set(await agent.updates(1, 15_000))]).toEqual([uri]);
    });

    it("hears on A the answer to its MCP question posted to B while A's link to Redis was cut", async () => {
      const { a, link, ask } = await askedOnAnsweredOn('redisbreakask', 'A');
      const { result, agent } = await ask(async () => {
        // Asked on A: A's link is cut, and the user's yes, posted to B once this returns, is published while A's
        // subscriber is away. The link comes back after it.
        link.cut();
        await until(async () => (await readiness(a.url)) === 503, 10_000);
        setTimeout(() => link.restore(), BREAK_MS);
        return { action: 'accept', content: { confirm: true } };
      });
      // Before, the answer was lost to A, whose call waited out its five minutes and then said nothing was ordered.
      expect(result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
      expect(agent.asked).toHaveLength(1);
    });

    it('hears on A the answer to its MCP question posted to B while B could not keep it in Redis (published anyway)', async () => {
      const { b, link, ask } = await askedOnAnsweredOn('redisbreakkeep', 'B');
      // B's connection for claims and kept answers (mcp/call-records.ts) is the one that has sent a claim: a cancel
      // on a session of its own. Cut, and refused again until restored, while B's bus connections stay up.
      const other = await rawSession(`${b.url}/mcp`);
      expect((await other.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).status).toBe(202);
      link.cut(/mcp:c:/u);
      afterThisTest(async () => link.restore());
      // Keeping is for an asker that misses the publish; failing, it must not stop the publish (a warning, not a 500).
      const { result } = await ask(async () => ({ action: 'accept', content: { confirm: true } }));
      expect(result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
      // Logged before the publish, read here from B's stdout perhaps after the answer.
      await vi.waitFor(() => expect(b.output()).toContain('"msg":"an MCP answer not kept"'));
    });
  },
);
