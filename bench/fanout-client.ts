/**
 * The fan-out client (its own process): opens N graphql-ws clients — one socket each, the real `graphql-ws`
 * client — subscribes each to holdCountdown, then measures tick lag over a window.
 *
 * Environment:
 *   FANOUT_URL       ws://127.0.0.1:PORT/graphql (the gateway or bench/fanout-bare-server.ts); several, comma-separated:
 *                    subscriber i connects to the (i mod count)th (two instances, half each)
 *   FANOUT_N         subscribers
 *   FANOUT_CLIENT_ORDERS  path to a JSON array of {orderNumber, payToken}; subscriber i watches order i mod length
 *                    (absent: the bare server, which ignores the variables)
 *   FANOUT_MEASURE_MS  the window (default 10000)
 *   FANOUT_CONNECT_TIMEOUT_MS  give up on opening (default 90000)
 *
 * Lag of a tick = its arrival here − the instant it was due. A tick reporting secondsLeft = k is for the second
 * boundary where floor((holdUntil − now) / 1000) becomes k, i.e. holdUntil − (k+1)·1000; the ticker sends it in
 * the first 10 ms slot that starts after that boundary, so up to 10 ms of the lag is the ticker's slot rounding
 * (the bare server uses the same ticker). The first event of each stream (sent at once) is not a tick.
 * Every subscriber has exactly window/1000 boundaries in the window; a tick for one of them that has not
 * arrived 1 s after the window closed counts as missing.
 *
 * Prints "subscribed" once every stream has its first event, "measuring" when the window opens, then one JSON
 * line of results on stdout and exits.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

const URLS = process.env.FANOUT_URL!.split(',');
const N = Number(process.env.FANOUT_N ?? 1000);
const MEASURE_MS = Number(process.env.FANOUT_MEASURE_MS ?? 10_000);
const CONNECT_TIMEOUT_MS = Number(process.env.FANOUT_CONNECT_TIMEOUT_MS ?? 90_000);
const IN_FLIGHT = 256; // subscriptions being opened at once (below the server's listen backlog of 511)
const SETTLE_MS = 1500;
const GRACE_MS = 1000;
const orders: Array<{ orderNumber: string; payToken: string }> = process.env.FANOUT_CLIENT_ORDERS
  ? (JSON.parse(readFileSync(process.env.FANOUT_CLIENT_ORDERS, 'utf8')) as Array<{ orderNumber: string; payToken: string }>)
  : [{ orderNumber: '0', payToken: 'bare' }];
const QUERY =
  'subscription Hold($orderNumber: ID!, $payToken: String!) { holdCountdown(orderNumber: $orderNumber, payToken: $payToken) { secondsLeft holdUntil status final } }';

interface Tick {
  secondsLeft: number;
  holdUntil: string;
  final: boolean;
  /** The bare server only: when it sent the tick (epoch ms), so its own part of the lag shows apart. */
  sentAt?: number;
}

const clients: Client[] = [];
let subscribed = 0;
let errors = 0;
let firstError = '';
let finals = 0;
// Set when the window opens; ticks due in [windowStart, windowEnd) are measured.
let windowStart = Infinity;
let windowEnd = Infinity;
const lags: number[] = [];
const serverLags: number[] = [];
const received = new Uint16Array(N);
const holdUntils = new Float64Array(N);

function fail(reason: unknown): void {
  errors++;
  if (!firstError) firstError = reason instanceof Error ? reason.message : JSON.stringify(reason) ?? String(reason);
}

function open(i: number): Promise<void> {
  return new Promise((resolveFirst) => {
    const client = createClient({
      url: URLS[i % URLS.length]!,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: (error) => {
        fail(error instanceof Error ? error : { closed: (error as { code?: number }).code });
        resolveFirst();
      },
    });
    clients.push(client);
    const order = orders[i % orders.length]!;
    let first = true;
    client.subscribe<{ holdCountdown: Tick }>(
      { query: QUERY, variables: { orderNumber: order.orderNumber, payToken: order.payToken } },
      {
        next: (result) => {
          const arrival = Date.now();
          const tick = result.data?.holdCountdown;
          if (!tick) return fail(result.errors ?? result);
          if (tick.final) finals++;
          if (first) {
            first = false;
            holdUntils[i] = Date.parse(tick.holdUntil);
            subscribed++;
            resolveFirst();
            return;
          }
          const due = holdUntils[i]! - (tick.secondsLeft + 1) * 1000;
          if (due >= windowStart && due < windowEnd) {
            received[i]!++;
            lags.push(arrival - due);
            if (tick.sentAt !== undefined) serverLags.push(tick.sentAt - due);
          }
        },
        error: (error) => {
          fail(error);
          resolveFirst();
        },
        complete: () => {},
      },
    );
  });
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const connectStarted = Date.now();
  let next = 0;
  const deadline = connectStarted + CONNECT_TIMEOUT_MS;
  const lane = async () => {
    while (next < N && Date.now() < deadline) await open(next++);
  };
  await Promise.race([
    Promise.all(Array.from({ length: IN_FLIGHT }, lane)),
    new Promise((done) => setTimeout(done, CONNECT_TIMEOUT_MS).unref()),
  ]);
  const connectMs = Date.now() - connectStarted;
  process.stdout.write(`subscribed ${subscribed}/${N} in ${connectMs} ms\n`);

  let result: Record<string, unknown>;
  if (subscribed < N || errors > 0) {
    result = { n: N, subscribed, errors, firstError, connectMs, ok: false };
  } else {
    await new Promise((done) => setTimeout(done, SETTLE_MS));
    windowStart = Date.now();
    windowEnd = windowStart + MEASURE_MS;
    process.stdout.write('measuring\n');
    const elu0 = performance.eventLoopUtilization();
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    await new Promise((done) => setTimeout(done, MEASURE_MS));
    const elu = performance.eventLoopUtilization(elu0);
    loopDelay.disable();
    await new Promise((done) => setTimeout(done, GRACE_MS));
    const expectedEach = MEASURE_MS / 1000;
    let missing = 0;
    let extra = 0;
    for (let i = 0; i < N; i++) {
      missing += Math.max(0, expectedEach - received[i]!);
      extra += Math.max(0, received[i]! - expectedEach);
    }
    lags.sort((a, b) => a - b);
    serverLags.sort((a, b) => a - b);
    result = {
      n: N,
      subscribed,
      connectMs,
      ticks: lags.length,
      expected: N * expectedEach,
      missing,
      extra,
      errors,
      firstError,
      finals,
      p50: percentile(lags, 50),
      p99: percentile(lags, 99),
      max: lags.at(-1) ?? null,
      // The bare server's own part of the lag (sentAt − due); null for the gateway, which sends no sentAt.
      serverP99: percentile(serverLags, 99),
      clientLoopUtilization: Number(elu.utilization.toFixed(3)),
      // How late this process's own event loop ran (ms): a high figure means the client, not the server, lagged.
      clientLoopDelayP99: Number((loopDelay.percentile(99) / 1e6).toFixed(1)),
      clientLoopDelayMax: Number((loopDelay.max / 1e6).toFixed(1)),
    };
    result.ok = missing === 0 && extra === 0 && errors === 0 && finals === 0 && (result.p99 as number) < 100;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // The sockets go with the process; the server sees them all close.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`fanout-client: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
