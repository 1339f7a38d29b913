/**
 * `npx tsx bench/fanout.ts`: subscription fan-out. The most concurrent holdCountdown subscribers one gateway
 * process holds with p99 tick lag under 100 ms and no missing tick, beside a bare `ws` server sending the same
 * ticks (bench/fanout-bare-server.ts), in the same run. Each server runs in its own process, the client
 * (bench/fanout-client.ts, the real graphql-ws client, one socket per subscriber) in another, fresh for every step.
 *
 * For each server N ramps up (4000, 8000, 12000, 16000, then the open-file cap), stops at the first step that
 * misses, then bisects between the last pass and that miss down to 1000 while the time budget allows.
 * A step: open and subscribe N sockets, settle 1.5 s, measure 20 s (every subscriber has 20 ticks due), wait 1 s.
 * The window is 20 s, not 10, on purpose: at 6000-8000 subscribers the gateway runs a major (mark-compact) GC
 * about every 12-16 s whose ~250 ms of marking delays a few % of ticks; a 10 s window caught it or not by luck.
 *
 * The gateway's orders are created once, over REST in parallel batches, into a SQLite file every gateway step
 * reuses (HOLD_SECONDS=3600, so no hold ends during the run); FANOUT_ORDERS of them (default 2000: creation runs
 * at about 500/s here) — subscriber i watches order i mod FANOUT_ORDERS. Every subscriber still has its own
 * subscription, lookup and ticker watch; only the order rows are shared. Their deadlines fall where in the
 * second each order was created, so the ticks are spread like the bare server's random phases.
 *
 * Sockets: every child is started through `bash -c 'ulimit -n …'`, raising its soft open-file limit as far as the
 * hard limit allows; N is capped at that limit less 200 (one process holds all N sockets on each side).
 *
 * FANOUT_TARGETS=bare,graphql-ws,gateway adds graphql-ws's own server with no GraphQL in it
 * (bench/fanout-graphql-ws-server.ts) and prints the CPU per subscriber of bare → graphql-ws → gateway.
 *
 * FANOUT_TARGETS=…,gateway2 adds two gateway instances on PostgreSQL (a fresh schema) and Redis, the client's
 * subscribers split between them and their CPU summed: on this machine they share its two cores with the client,
 * PostgreSQL and Redis, so the figure says what a second instance costs here, not what it brings on its own machine.
 *
 * Environment: FANOUT_TARGETS (default "bare,gateway"), FANOUT_STEPS (e.g. "2000,4000,8000"), FANOUT_ORDERS,
 * FANOUT_MEASURE_SECONDS (default 20), FANOUT_BUDGET_SECONDS (default 340; no new step starts past it),
 * and, as for every gateway the bench starts, BENCH_NODE_ARGS (node flags, space-separated, bench/lib.ts): e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/p`, or --heapsnapshot-signal=SIGUSR2 to take a heap snapshot while it holds a step.
 * Targets 127.0.0.1 only; stops by itself; every child process is ended on the way out, also on error or signal.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_ENTRY, row } from './lib.ts';
import { killAll, startNode, type Proc } from './fanout-processes.ts';
import { cpuSeconds } from './pinning.ts';
import { cpuPerSubscriber, failedStep, fmt, print, stepFromReport, type StepResult, type Target } from './fanout-report.ts';
import { randomBytes } from 'node:crypto';

const TARGETS = (process.env.FANOUT_TARGETS ?? 'bare,gateway').split(',') as Target[];
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORDERS = Number(process.env.FANOUT_ORDERS ?? 2000);
const MEASURE_MS = Number(process.env.FANOUT_MEASURE_SECONDS ?? 20) * 1000;
const BUDGET_MS = Number(process.env.FANOUT_BUDGET_SECONDS ?? 340) * 1000;
const P99_LIMIT_MS = 100;
const started = Date.now();

const FD_LIMIT = Number(
  execFileSync('bash', ['-c', 'ulimit -n 65535 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null; ulimit -n'], {
    encoding: 'utf8',
  }).trim(),
);
const CAP = Math.floor((FD_LIMIT - 200) / 100) * 100;
const STEPS = (process.env.FANOUT_STEPS ?? `4000,8000,12000,16000,${CAP}`)
  .split(',')
  .map(Number)
  .filter((n, i, all) => n > 0 && n <= CAP && all.indexOf(n) === i);

const dir = mkdtempSync(join(tmpdir(), 'sleeve-fanout-'));
const ordersFiles = { bare: '', 'graphql-ws': '', gateway: join(dir, 'orders.json'), gateway2: join(dir, 'orders-pg.json') };
const pgSchema = `bench_fanout_${randomBytes(4).toString('hex')}`;
const gatewayEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: `file:${join(dir, 'fanout.db')}`,
  HOLD_SECONDS: '3600',
  RATE_LIMIT_WRITE: '10000000',
  RATE_LIMIT_READ: '10000000',
  // Every subscriber comes from 127.0.0.1: one address, far past a venue's bounds (docs/edge.md#bounds).
  MAX_CONNECTIONS_PER_ADDRESS: '1000000',
  MAX_STREAMS_PER_ADDRESS: '1000000',
  LOG_LEVEL: 'warn',
};
const LISTENING = /listening on (http:\/\/\S+)/u;

function startServers(target: Target): Proc[] {
  if (target === 'bare') return [startNode('bench/fanout-bare-server.ts', {}, LISTENING)];
  if (target === 'graphql-ws') return [startNode('bench/fanout-graphql-ws-server.ts', {}, LISTENING)];
  if (target === 'gateway') return [startNode(GATEWAY_ENTRY, gatewayEnv, LISTENING)];
  const url = new URL(PG_URL);
  url.searchParams.set('schema', pgSchema);
  const env = { ...gatewayEnv, DATABASE_URL: url.toString(), REDIS_URL };
  return [startNode(GATEWAY_ENTRY, env, LISTENING), startNode(GATEWAY_ENTRY, env, LISTENING)];
}

const stopAll = (procs: Array<Proc | null>) => Promise.all(procs.map((proc) => proc?.stop()));

async function createOrders(target: 'gateway' | 'gateway2'): Promise<void> {
  const servers = startServers(target);
  try {
    const base = (await Promise.all(servers.map((server) => server.ready)))[0]![1]!;
    const stamp = Date.now();
    const created: Array<{ orderNumber: string; payToken: string }> = [];
    const one = async (i: number) => {
      const response = await fetch(`${base}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `fanout-${stamp}-${i}@bench.test`,
          name: 'Fan Bench',
          size: '13-inch',
          font: 'Block',
          thread: 'Gold',
          stitchText: 'FAN',
        }),
      });
      const body = (await response.json()) as { orderNumber?: string; payToken?: string };
      if (!response.ok || !body.orderNumber || !body.payToken) throw new Error(`POST /api/orders: ${JSON.stringify(body)}`);
      created.push({ orderNumber: body.orderNumber, payToken: body.payToken });
    };
    for (let at = 0; at < ORDERS; at += 64) {
      await Promise.all(Array.from({ length: Math.min(64, ORDERS - at) }, (_, k) => one(at + k)));
    }
    writeFileSync(ordersFiles[target], JSON.stringify(created));
  } finally {
    await stopAll(servers);
  }
}

async function step(target: Target, n: number): Promise<StepResult> {
  const stepStarted = Date.now();
  const servers = startServers(target);
  // Their CPU together: two instances share the work, and the machine's two cores.
  const cpuOfServers = () => servers.reduce<number | null>((sum, s) => { const c = cpuSeconds(s.child.pid); return sum === null || c === null ? null : sum + c; }, 0);
  let client: Proc | null = null;
  try {
    const bases = (await Promise.all(servers.map((server) => server.ready))).map((ready) => ready[1]!);
    client = startNode(
      'bench/fanout-client.ts',
      {
        FANOUT_URL: bases.map((base) => `${base.replace(/^http/u, 'ws')}/graphql`).join(','),
        FANOUT_N: String(n),
        FANOUT_MEASURE_MS: String(MEASURE_MS),
        FANOUT_CLIENT_ORDERS: ordersFiles[target],
      },
      /^\{.*\}$/u,
    );
    let cpuAtWindow: number | null = null;
    let windowAt = 0;
    client.lines((line) => {
      if (line === 'measuring') {
        cpuAtWindow = cpuOfServers();
        windowAt = Date.now();
      }
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('step timed out')), 90_000 + MEASURE_MS + 30_000).unref(),
    );
    const line = (await Promise.race([client.ready, timeout]))[0];
    // The window ends MEASURE_MS after it opened; the client reports 1 s later (the server idles meanwhile).
    const cpuNow = cpuOfServers();
    const serverCpu =
      cpuAtWindow !== null && cpuNow !== null ? (cpuNow - cpuAtWindow) / ((Date.now() - windowAt) / 1000) : null;
    return stepFromReport(target, n, line, serverCpu, (Date.now() - stepStarted) / 1000, P99_LIMIT_MS);
  } catch (error) {
    const stderr = (client?.stderrTail() ?? '') + servers.map((server) => server.stderrTail()).join('');
    const note = `${error instanceof Error ? error.message.slice(0, 300) : String(error)} ${stderr.slice(-300)}`.trim();
    return failedStep(target, n, note, (Date.now() - stepStarted) / 1000);
  } finally {
    await stopAll([client, ...servers]);
  }
}

/** Ramps through STEPS until a miss, then bisects to 1000 while the budget allows. The best passing step. */
async function ramp(target: Target, budgetEnd: number): Promise<{ best: StepResult | null; steps: StepResult[] }> {
  const steps: StepResult[] = [];
  let best: StepResult | null = null;
  let missAt: number | null = null;
  let lastSeconds = 25;
  const fits = () => Date.now() + lastSeconds * 1000 <= budgetEnd;
  for (const n of STEPS) {
    if (!fits()) break;
    const r = await step(target, n);
    print(r);
    steps.push(r);
    lastSeconds = r.seconds;
    if (!r.ok) {
      missAt = n;
      break;
    }
    best = r;
  }
  while (missAt !== null && missAt - (best?.n ?? 0) > 1000 && fits()) {
    const n = Math.round(((best?.n ?? 0) + missAt) / 2 / 1000) * 1000;
    const r = await step(target, n);
    print(r);
    steps.push(r);
    lastSeconds = r.seconds;
    if (r.ok) best = r;
    else missAt = n;
  }
  return { best, steps };
}

async function main(): Promise<void> {
  console.log(
    `fan-out: open-file limit ${FD_LIMIT} per process (N capped at ${CAP}); steps ${STEPS.join(', ')}; ` +
      `window ${MEASURE_MS / 1000} s; pass = p99 < ${P99_LIMIT_MS} ms and no missing tick`,
  );
  for (const target of ['gateway', 'gateway2'] as const) {
    if (!TARGETS.includes(target)) continue;
    const t0 = Date.now();
    await createOrders(target);
    console.log(`${target}: created ${ORDERS} orders in ${((Date.now() - t0) / 1000).toFixed(1)} s (subscriber i watches order i mod ${ORDERS})`);
  }
  const results: Partial<Record<Target, StepResult | null>> = {};
  const all: StepResult[] = [];
  for (const [index, target] of TARGETS.entries()) {
    // Each target gets an equal share of what is left of the budget (the last one all of it).
    const left = started + BUDGET_MS - Date.now();
    const end = Date.now() + left / (TARGETS.length - index);
    const { best, steps } = await ramp(target, end);
    results[target] = best;
    all.push(...steps);
  }

  const widths = [34, 10, 10, 10, 12];
  console.log(`\nmost subscribers held with p99 tick lag < ${P99_LIMIT_MS} ms and no missing tick (one process each)`);
  console.log(row(['server', 'N', 'p50 ms', 'p99 ms', 'server cpu'], widths));
  const labels = { bare: 'bare ws + the same ticker', 'graphql-ws': "graphql-ws's server, no GraphQL", gateway: 'gateway holdCountdown (graphql-ws)', gateway2: 'two gateways, PostgreSQL + Redis' };
  for (const target of TARGETS) {
    const best = results[target];
    console.log(row([labels[target], best?.n ?? 0, fmt(best?.p50 ?? null), fmt(best?.p99 ?? null), fmt(best?.serverCpu ?? null, 2)], widths));
  }
  const bareN = results.bare?.n;
  const gatewayN = results.gateway?.n;
  const ratio = bareN && gatewayN !== undefined ? gatewayN / bareN : null;
  const capped = bareN === CAP ? ` (bare reached the ${CAP} cap, so the ratio is a ceiling)` : '';
  if (ratio !== null) console.log(`\ngateway / bare: ${ratio.toFixed(2)}${capped}`);
  if (results.gateway2 !== undefined && gatewayN) {
    console.log(`two instances (half the subscribers each, on the same two cores) / one: ${((results.gateway2?.n ?? 0) / gatewayN).toFixed(2)}`);
  }
  const cpu = cpuPerSubscriber(all);
  if (cpu) console.log(`server CPU per subscriber, gateway / bare, at N=${cpu.n} (the largest N both held): ${cpu.ratio.toFixed(2)}`);
  const library = cpuPerSubscriber(all, 'graphql-ws');
  const overLibrary = cpuPerSubscriber(all, 'gateway', 'graphql-ws');
  if (library) console.log(`server CPU per subscriber, graphql-ws's server / bare, at N=${library.n}: ${library.ratio.toFixed(2)}`);
  if (overLibrary) console.log(`server CPU per subscriber, gateway / graphql-ws's server, at N=${overLibrary.n}: ${overLibrary.ratio.toFixed(2)}`);
  console.log(
    JSON.stringify({
      fdLimit: FD_LIMIT,
      cap: CAP,
      orders: ORDERS,
      bare: bareN ?? null,
      gateway: gatewayN ?? null,
      twoInstances: results.gateway2?.n ?? null,
      ratio,
      cpuRatio: cpu?.ratio ?? null,
      cpuRatioAt: cpu?.n ?? null,
      graphqlWs: results['graphql-ws']?.n ?? null,
      graphqlWsCpuRatio: library?.ratio ?? null,
      cpuRatioOverGraphqlWs: overLibrary?.ratio ?? null,
      seconds: Math.round((Date.now() - started) / 1000),
      steps: all.map(({ target, n, ok, p50, p99, missing, serverCpu }) => ({ target, n, ok, p50, p99, missing, serverCpu })),
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  });
