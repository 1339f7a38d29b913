/**
 * Merchants' own endpoints (issue 19, docs/merchant-webhooks.md), against local node:http receivers:
 *
 * 1. Isolation: change → delivery at site A's healthy endpoint (a card update through the real trigger, from the
 *    update's answer to the receiver seeing its /token-updated), measured in slices that alternate, ABBA, between
 *    "alone" and "beside a hanging endpoint": site B's endpoint, whose receiver never answers (each attempt would
 *    wait out the 10 s timeout), is enabled for the second kind of slice with more of B's card updates queued behind
 *    it than it has slots, so every slot hangs throughout. Both kinds start alike (B's card updates queued, a pause),
 *    and a beside slice ends with B disabled and its held requests cut, so an alone slice is alone: nothing hangs.
 *    The figure: p99 beside / p99 alone (target ≤ 1.2).
 * 2. Throughput: N card updates of site C queued while C's endpoint is disabled (it keeps them), then the endpoint
 *    enabled: delivered per second, first arrival → last. Baseline: the same POSTs (bodies and headers as received)
 *    sent again to the same receiver as the dispatcher sends them (node:http, kept-alive connections, PER_ENDPOINT at
 *    a time) from a process of their own, as the gateway is (webhooks-direct.ts), timed the same way, first arrival
 *    → last, in DIRECT_PASSES passes one after another: the median pass is the baseline. Target ≥ 0.8.
 *
 * Runs alone (`npx tsx bench/webhooks.ts`) or through benchWebhooks(). Environment: BENCH_HOOKS_N (default 4000),
 * BENCH_HOOKS_M (changes per slice, default 25), BENCH_HOOKS_SLICES (default 32). The defaults were 1000 and 8: a
 * p99 of 200 changes is their second-worst, and 1,000 deliveries take about 0.3 s, so one stall of the shared cores
 * moved either figure by a quarter between runs; 800 changes of each kind and 4,000 deliveries hold still.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PER_ENDPOINT } from '../src/notifications/delivery-slots.ts';
import { abbaSide, directRate, GATEWAY_ENTRY, percentile, pool, sendDirect, startChild, waitFor } from './lib.ts';

const ADMIN = 'bench-admin';
const SITE_ID = 'bench-site';
const API_KEY = 'bench-api-key';
/** Times the direct baseline sends the dispatcher's POSTs; its rate is the median of the passes'. */
const DIRECT_PASSES = 3;
/** A pause before each slice, and after a beside slice (B's requests cut and their failures recorded meanwhile). */
const SETTLE_MS = 200;

export interface WebhookFigures {
  aloneP50: number;
  aloneP99: number;
  besideP50: number;
  besideP99: number;
  /** p99 beside a hanging endpoint / p99 alone. */
  isolation: number;
  deliveredPerSecond: number;
  directPerSecond: number;
  /** Delivered per second / direct POSTs per second. */
  throughput: number;
  /** The same POSTs sent with the dispatcher's durable work and nothing else (webhooks-durable.ts), per second. */
  durablePerSecond: number;
  /** Durable / direct: the most any dispatcher doing that work reaches of the direct POSTs here. */
  ceiling: number;
}

interface Arrival {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface Receiver {
  server: Server;
  url: string;
  arrivals: Arrival[];
  /** Called with each arrival (and its parsed body). */
  onArrival?: (arrival: Arrival, body: Record<string, unknown>) => void;
  /** Requests a hanging receiver holds open now. */
  holding: () => number;
  /** Cuts the connections of the requests it holds. */
  release: () => void;
}

/** A merchant's endpoint: answers 200 (or, hanging, never), noting each arrival. */
async function receiver(hang = false): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const self: Receiver = { server: null as never, url: '', arrivals: [], holding: () => held.filter((res) => !res.destroyed).length, release: () => held.splice(0).forEach((res) => res.socket?.destroy()) };
  self.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hang) return void held.push(res);
      const body = Buffer.concat(chunks).toString('utf8');
      const arrival = { at: performance.now(), path: req.url ?? '', headers: req.headers as Record<string, string>, body };
      self.arrivals.push(arrival);
      self.onArrival?.(arrival, JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  self.server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(self.server.address() as AddressInfo).port}`;
  return self;
}

async function close(r: Receiver): Promise<void> {
  r.server.closeAllConnections();
  await new Promise<void>((resolve) => r.server.close(() => resolve()));
}

const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;

async function call(base: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const response = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

interface Site {
  auth: Record<string, string>;
  /** Changes the site's card: one /token-updated each time (the expiry alternates). */
  change(): Promise<void>;
  endpoint(url: string, enabled: boolean): Promise<string>;
  setEnabled(endpointId: string, enabled: boolean): Promise<void>;
}

async function merchantSite(base: string, n: number): Promise<Site> {
  const admin = { authorization: basic(SITE_ID, API_KEY), 'x-vendor-siteid': SITE_ID, 'api-version': '10.3' };
  const merchant = await call(base, 'POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: `bench-${n}`, name: `Bench shop ${n}` }, admin);
  const auth = { authorization: basic(merchant.id, merchant.apiKey) };
  const card = { cardNumber: '4242424242424242', expirationMonth: 12, expirationYear: 2030, cardHolderName: 'Ada Lovelace' };
  await call(base, 'POST', '/v1/tokenization/tokenize', card, auth);
  let flip = 0;
  return {
    auth,
    change: () => call(base, 'POST', '/v1/account-updater/card/update', { ...card, expirationMonth: 1 + (flip++ % 12), expirationYear: 2031 + (flip % 2) }, auth),
    endpoint: async (url, enabled) => (await call(base, 'POST', '/v1/webhooks/endpoints', { url, eventTypes: ['token-updated'], enabled }, auth)).id as string,
    setEnabled: (id, enabled) => call(base, 'PATCH', `/v1/webhooks/endpoints/${id}`, { enabled }, auth),
  };
}

/** Arrivals per second, first → last. */
const rate = (arrivals: Arrival[]) => arrivals.length / ((arrivals[arrivals.length - 1]!.at - arrivals[0]!.at) / 1000);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `at` has seen nothing new for `quietMs` (after a first arrival). */
async function settled(at: Receiver, quietMs: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  let seen = -1;
  let since = Date.now();
  for (;;) {
    if (at.arrivals.length !== seen) [seen, since] = [at.arrivals.length, Date.now()];
    else if (seen > 0 && Date.now() - since >= quietMs) return;
    if (Date.now() > until) throw new Error('deliveries never settled');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One change of `site` at a time, `m` times: from each update's answer to its arrival at `at`. */
async function changeToDelivery(site: Site, at: Receiver, m: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < m; i++) {
    const before = at.arrivals.length;
    await site.change();
    const answered = performance.now();
    await waitFor(() => at.arrivals.length > before, 15_000, 'a delivery');
    latencies.push(Math.max(0, at.arrivals[before]!.at - answered));
  }
  return latencies;
}

export async function benchWebhooks(n = Number(process.env.BENCH_HOOKS_N ?? 4000), m = Number(process.env.BENCH_HOOKS_M ?? 25), slices = Number(process.env.BENCH_HOOKS_SLICES ?? 32)): Promise<WebhookFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-hooks-'));
  const [healthy, hanging, bulk] = [await receiver(), await receiver(true), await receiver()];
  const gateway = await startChild(GATEWAY_ENTRY, { DATABASE_URL: `file:${join(dir, 'bench.db')}`, ENDPOINT_ALLOWED_NETWORKS: 'loopback', ADMIN_TOKEN: ADMIN, VENDOR_SITE_ID: SITE_ID, VENDOR_API_KEY: API_KEY, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' });
  try {
    const [a, b, c] = [await merchantSite(gateway.url, 1), await merchantSite(gateway.url, 2), await merchantSite(gateway.url, 3)];
    await a.endpoint(healthy.url, true);
    const bEndpoint = await b.endpoint(hanging.url, false);

    // 1. Isolation, ABBA: slices 0 1 2 3 … are alone, beside, beside, alone, …
    const alone: number[] = [];
    const beside: number[] = [];
    await changeToDelivery(a, healthy, 5); // warm-up
    for (let slice = 0; slice < slices; slice++) {
      const besideHanging = abbaSide(slice) === 1;
      // Every slice starts alike: B's backlog grows by more than its endpoint's slots (kept while it is disabled).
      await pool(2 * PER_ENDPOINT, 8, () => b.change());
      if (besideHanging) {
        // Enabled, B's endpoint fills every slot, and each hangs for the whole slice (the timeout is 10 s).
        await b.setEnabled(bEndpoint, true);
        await waitFor(() => hanging.holding() >= PER_ENDPOINT, 10_000, "the hanging endpoint's slots");
      }
      await pause(SETTLE_MS);
      (besideHanging ? beside : alone).push(...(await changeToDelivery(a, healthy, m)));
      if (process.env.BENCH_HOOKS_TRACE) console.error(besideHanging ? 'beside' : 'alone', slice, (besideHanging ? beside : alone).slice(-m).map((x) => x.toFixed(1)).join(' '));
      if (besideHanging) {
        // Disabled, and its requests cut (their failures recorded meanwhile): the next alone slice has nothing hanging.
        await b.setEnabled(bEndpoint, false);
        hanging.release();
        await pause(SETTLE_MS);
      }
    }

    // 2. Throughput: N changes of site C queued behind its disabled endpoint, then the endpoint enabled.
    const cEndpoint = await c.endpoint(bulk.url, false);
    await pool(n, 16, () => c.change());
    await c.setEnabled(cEndpoint, true);
    // Two concurrent updates to the same expiry can leave nothing to notify for the second: count what arrives.
    await settled(bulk, 3_000, 300_000);
    const delivered = bulk.arrivals.length;
    if (delivered < n * 0.9) throw new Error(`only ${delivered} of ${n} changes were delivered`);
    const sent = bulk.arrivals.splice(0);
    const deliveredPerSecond = rate(sent);
    /** The same requests sent again from a process of their own by `sender`, DIRECT_PASSES times: their median pass. */
    const sentAgain = async (what: string, sender?: string, extra?: string[]) => {
      bulk.arrivals.splice(0);
      await sendDirect(sent, bulk.url, join(dir, 'posts.json'), PER_ENDPOINT, DIRECT_PASSES, sender, extra);
      if (bulk.arrivals.length !== DIRECT_PASSES * sent.length) throw new Error(`the ${what} POSTs arrived ${bulk.arrivals.length} times of ${DIRECT_PASSES * sent.length}`);
      const { rate: perSecond, passes } = directRate(bulk.arrivals.map((arrival) => arrival.at), sent.length, DIRECT_PASSES);
      if (process.env.BENCH_HOOKS_TRACE) console.error(`${what} passes`, passes.map((r) => r.toFixed(0)).join(' '));
      return perSecond;
    };
    // As the dispatcher sent them (webhook-client.ts); then with its durable work (claims, sealed bodies, signing,
    // recorded attempts) and no gateway.
    const directPerSecond = await sentAgain('direct');
    const durablePerSecond = await sentAgain('durable', 'bench/webhooks-durable.ts', [join(dir, 'durable.db')]);

    const aloneP99 = percentile(alone, 99);
    const besideP99 = percentile(beside, 99);
    return {
      aloneP50: percentile(alone, 50),
      aloneP99,
      besideP50: percentile(beside, 50),
      besideP99,
      isolation: besideP99 / aloneP99,
      deliveredPerSecond,
      directPerSecond,
      throughput: deliveredPerSecond / directPerSecond,
      durablePerSecond,
      ceiling: durablePerSecond / directPerSecond,
    };
  } finally {
    await gateway.stop();
    await Promise.all([healthy, hanging, bulk].map(close));
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printWebhookFigures(f: WebhookFigures): void {
  console.log(`merchant endpoints, change → delivery at a healthy endpoint: alone p50 ${f.aloneP50.toFixed(1)} ms, p99 ${f.aloneP99.toFixed(1)} ms; beside another site's hanging endpoint p50 ${f.besideP50.toFixed(1)} ms, p99 ${f.besideP99.toFixed(1)} ms (p99 ratio ${f.isolation.toFixed(2)}, target ≤ 1.2)`);
  console.log(`merchant endpoint throughput: ${f.deliveredPerSecond.toFixed(0)} delivered/s; the same POSTs sent directly, ${PER_ENDPOINT} at a time: ${f.directPerSecond.toFixed(0)}/s (median of ${DIRECT_PASSES} passes) (ratio ${f.throughput.toFixed(2)}, target ≥ 0.8)`);
  console.log(`  with the dispatcher's durable work and no gateway (webhooks-durable.ts): ${f.durablePerSecond.toFixed(0)}/s, ${f.ceiling.toFixed(2)} of direct (the ceiling); the gateway makes ${(f.deliveredPerSecond / f.durablePerSecond).toFixed(2)} of it`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchWebhooks()
    .then(printWebhookFigures)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
