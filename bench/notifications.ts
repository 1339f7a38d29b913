/**
 * The notifications figures (issue 7), against a local node:http receiver answering 200:
 *
 * 1. Delivered per second: N evidence requests are queued through the real trigger (staff `openClaim` over
 *    GraphQL) while MERCHANT_ENDPOINT is unset, so they wait in the outbox; the gateway is then restarted with
 *    MERCHANT_ENDPOINT set and delivers them all. The rate is N / (first arrival → last arrival). Baseline: the
 *    same POSTs (same bodies and headers) sent again to the receiver from a process of their own, as the gateway
 *    is (bench/webhooks-direct.ts: node:http, kept-alive connections), 64 at a time (the dispatcher's limit), in
 *    DIRECT_PASSES passes timed each on its own: the median pass. Until 2026-11-30 it was sent with fetch from the
 *    bench's own process, sharing a thread with the receiver, which held the baseline down.
 * 2. Change → delivery: M more claims opened one after another on the running gateway; for each, the time from
 *    the mutation's answer to the receiver seeing its notification (p50, p99). Baseline: one direct POST's time.
 *
 * Runs alone (`npx tsx bench/notifications.ts`) or through benchNotifications(). Environment: BENCH_NOTIFY_N
 * (default 2000), BENCH_NOTIFY_M (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { directRate, GATEWAY_ENTRY, percentile, pool, sendDirect, startChild, waitFor, type Child } from './lib.ts';

const ADMIN = 'bench-admin';
/** The dispatcher's limit of deliveries in flight (src/notifications/dispatcher-job.ts), the baseline's width. */
const WIDTH = 64;
const DIRECT_PASSES = 3;
const OPEN = 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 9.5, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["INVOICE", "PROOF_OF_DELIVERY"] }) { claimId } }';

export interface NotificationFigures {
  deliveredPerSecond: number;
  directPerSecond: number;
  /** Delivered per second / direct POSTs per second. */
  ratio: number;
  latencyP50: number;
  latencyP99: number;
  directP50: number;
  directP99: number;
}

interface Arrival {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The merchant endpoint: answers 200 and notes when each claim's notification first arrived, and every arrival's time. */
async function receiver(): Promise<{ server: Server; url: string; arrivals: Map<string, Arrival>; times: number[]; count: () => number }> {
  const arrivals = new Map<string, Arrival>();
  const times: number[] = [];
  let count = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      times.push(performance.now());
      const body = Buffer.concat(chunks).toString('utf8');
      const claimId = String((JSON.parse(body) as { claimId?: number }).claimId);
      if (!arrivals.has(claimId)) arrivals.set(claimId, { at: performance.now(), path: req.url ?? '', headers: req.headers as Record<string, string>, body });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, times, count: () => count };
}

async function gql(base: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await response.json()) as any;
  if (json.errors) throw new Error(JSON.stringify(json.errors));
  return json.data;
}

export async function benchNotifications(n = Number(process.env.BENCH_NOTIFY_N ?? 2000), m = Number(process.env.BENCH_NOTIFY_M ?? 300)): Promise<NotificationFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-notify-'));
  const merchant = await receiver();
  const base = { DATABASE_URL: `file:${join(dir, 'bench.db')}`, ADMIN_TOKEN: ADMIN, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000', MERCHANT_SIGNING_KEY: 'bench-key' };
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  let gateway: Child | null = null;
  try {
    // Queue N while no endpoint is configured: they wait in the outbox.
    gateway = await startChild(GATEWAY_ENTRY, base);
    const order = (await (await fetch(`${gateway.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' }) })).json()) as { orderNumber: string };
    await pool(n, 16, async () => void (await gql(gateway!.url, OPEN, { o: order.orderNumber, d: dueDate })));
    await gateway.stop();

    // Restart with the endpoint: everything queued is delivered at once.
    gateway = await startChild(GATEWAY_ENTRY, { ...base, MERCHANT_ENDPOINT: merchant.url });
    await waitFor(() => merchant.arrivals.size >= n, 120_000, `${n} deliveries`);
    const times = [...merchant.arrivals.values()].map((a) => a.at);
    const deliveredPerSecond = n / ((Math.max(...times) - Math.min(...times)) / 1000);

    // Baseline: the same POSTs, as received, sent again from a process of their own, WIDTH at a time.
    const sent = [...merchant.arrivals.values()];
    const before = merchant.times.length;
    await sendDirect(sent, merchant.url, join(dir, 'posts.json'), WIDTH, DIRECT_PASSES);
    const direct = merchant.times.slice(before);
    if (direct.length !== DIRECT_PASSES * sent.length) throw new Error(`the direct POSTs arrived ${direct.length} times of ${DIRECT_PASSES * sent.length}`);
    const { rate: directPerSecond } = directRate(direct, sent.length, DIRECT_PASSES);

    // Change → delivery, one claim at a time.
    const latencies: number[] = [];
    for (let i = 0; i < m; i++) {
      const { openClaim } = await gql(gateway.url, OPEN, { o: order.orderNumber, d: dueDate });
      const answered = performance.now();
      await waitFor(() => merchant.arrivals.has(String(openClaim.claimId)), 10_000, `claim ${openClaim.claimId}`);
      latencies.push(Math.max(0, merchant.arrivals.get(String(openClaim.claimId))!.at - answered));
    }
    const single: number[] = [];
    for (let i = 0; i < m; i++) {
      const started = performance.now();
      await (await fetch(merchant.url + sent[i % sent.length]!.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent[i % sent.length]!.body })).arrayBuffer();
      single.push(performance.now() - started);
    }
    return {
      deliveredPerSecond,
      directPerSecond,
      ratio: deliveredPerSecond / directPerSecond,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      directP50: percentile(single, 50),
      directP99: percentile(single, 99),
    };
  } finally {
    await gateway?.stop();
    merchant.server.closeAllConnections();
    await new Promise<void>((resolve) => merchant.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printNotificationFigures(f: NotificationFigures): void {
  console.log(`notifications delivered per second: ${f.deliveredPerSecond.toFixed(0)} (the same POSTs sent directly from a process of their own, ${WIDTH} at a time: ${f.directPerSecond.toFixed(0)}/s, median of ${DIRECT_PASSES} passes; ratio ${f.ratio.toFixed(2)})`);
  console.log(`change → delivery: p50 ${f.latencyP50.toFixed(1)} ms, p99 ${f.latencyP99.toFixed(1)} ms (one direct POST: p50 ${f.directP50.toFixed(1)} ms, p99 ${f.directP99.toFixed(1)} ms)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchNotifications()
    .then(printNotificationFigures)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
