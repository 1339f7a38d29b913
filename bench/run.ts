/**
 * `npm run bench` (it builds first, and measures the build, as `npm start` runs it): the gateway against bare
 * node:http baselines (bench/throughput.ts: 64 connections, 10 s each, after a warm-up, over 3 rounds; the median
 * of the rounds' ratios, with their spread). Figures are ratios to a baseline measured in the same run: absolute
 * numbers drift with the shared cores.
 *
 * Then one figure per area, each against its own baseline in the same run: payments through /api/payments
 * (bench/payments.ts), profile-access decisions (bench/decisions.ts), notifications delivered and change → delivery
 * time (bench/notifications.ts), merchants' own endpoints: isolation beside a hanging endpoint and throughput
 * (bench/webhooks.ts), orders on PostgreSQL with one and two instances (bench/scale.ts), and the
 * subscription fan-out (bench/fanout.ts), and the venue: 2,000 attendees behind one address, wrong 429s and the
 * limiter's cost (bench/venue.ts), and the cost of metrics and request logs, on vs off (bench/observability.ts), and
 * MCP get_sleeve_options calls against REST GET /api/sleeve-options (bench/mcp.ts).
 *
 * The orders and payments figures also compare SQLITE_SYNCHRONOUS=full (the default) with normal in the same run
 * (bench/orders.ts, bench/payments.ts; docs/running.md#durability-of-the-embedded-database).
 *
 * Stable figures (issue 21, part 3): every figure comes from BENCH_ROUNDS runs and is printed as their median with
 * the min–max spread and each run's value. Areas that measure in rounds of their own (throughput, SQLITE_SYNCHRONOUS,
 * write paths, the venue's limiter cost, metrics and logs, MCP) are given BENCH_ROUNDS; the others (orders, payments,
 * decisions, notifications, merchants' endpoints, PostgreSQL scale-out) are run BENCH_ROUNDS times over. The
 * fan-out runs BENCH_FANOUT_ROUNDS times (default 2: one run is about five minutes). The venue's three paced events
 * (its wrong 429s, a count, not a ratio) run once. A failing area is reported and the run goes on to the next; the
 * process then exits with 1.
 *
 * The summary (bench/summary.ts): each figure's name, unit, target where an issue states one, median, min, max and
 * runs, with the date, the machine (CPU model and count, memory) and the Node version, in
 * bench/results/<start time>.json (git-ignored; rewritten after every figure) and as a Markdown table at the end.
 * `npx tsx bench/readme-table.ts bench/results/<file>.json` puts that table into README.md's "Benchmark" section,
 * between its bench-table markers.
 *
 * Environment: BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3), BENCH_FANOUT_ROUNDS (default 2); BENCH_SYNC=0,
 * BENCH_PAYMENTS=0, BENCH_DECISIONS=0, BENCH_WRITE=0, BENCH_NOTIFY=0, BENCH_HOOKS=0, BENCH_SCALE=0, BENCH_VENUE=0,
 * BENCH_OBSERVABILITY=0, BENCH_MCP=0 and BENCH_FANOUT=0 leave the matching figure out (BENCH_VENUE_SECONDS, default
 * 30: the venue's compressed 10-minute event). BENCH_NODE_ARGS: node flags for every gateway the bench starts
 * (bench/lib.ts), e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. BENCH_PIN=0: the metrics-and-logs figure's servers and load
 * left to the scheduler (bench/pinning.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { GATEWAY_ENTRY, ROOT, runnerArgs, startChild } from './lib.ts';
import { benchDecisions, printDecisionsFigure } from './decisions.ts';
import { benchNotifications, printNotificationFigures } from './notifications.ts';
import { benchWebhooks, printWebhookFigures } from './webhooks.ts';
import { ordersBySynchronous, ordersPerSecond, printSynchronousFigure } from './orders.ts';
import { benchPayments, printPaymentsFigure } from './payments.ts';
import { benchScale, printScaleFigures } from './scale.ts';
import { benchVenue, printVenueFigure } from './venue.ts';
import { benchObservability, printObservabilityFigure } from './observability.ts';
import { benchMcp, printMcpFigure } from './mcp.ts';
import { benchThroughput, printThroughputFigure } from './throughput.ts';
import { benchWriteBaselines, printWriteBaselines } from './write-baseline.ts';
import { atLeast, atMost, BenchSummary, repeat } from './summary.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FANOUT_ROUNDS = Number(process.env.BENCH_FANOUT_ROUNDS ?? 2);
// The settings that shape the figures, with the switches that left some out, go into the summary's heading.
const leftOut = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => /^BENCH_[A-Z_]+$/u.test(name) && value === '0'));
const summary = new BenchSummary({ BENCH_SECONDS: SECONDS, BENCH_ROUNDS: ROUNDS, BENCH_FANOUT_ROUNDS: FANOUT_ROUNDS, ...leftOut });

/** One area, unless its switch is 0; a failure is recorded and the run goes on to the next area. */
async function area(name: string, envSwitch: string | null, measure: () => Promise<void>): Promise<void> {
  if (envSwitch && process.env[envSwitch] === '0') return;
  console.log('');
  const started = Date.now();
  try {
    await measure();
  } catch (error) {
    summary.fail(name, error);
  }
  // What each area takes, to plan a run's length.
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

async function requestPath(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-'));
  const gateway = await startChild(GATEWAY_ENTRY, {
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    // The limiter still runs on every request; the limits are just out of reach of one load generator.
    RATE_LIMIT_READ: '10000000',
    RATE_LIMIT_WRITE: '10000000',
  });
  try {
    const t = await benchThroughput(gateway.url, SECONDS, ROUNDS);
    printThroughputFigure(t, SECONDS);
    // Issue 16's figure; the bare POST (the least a GraphQL POST server must do) is the yardstick the lead set.
    summary.add('GraphQL { sleeveOptions } / bare POST', 'ratio', t.graphql.map((g, i) => g.rps / t.barePost[i]!.rps), atLeast(0.7));
    summary.add('GraphQL { sleeveOptions } / bare GET', 'ratio', t.graphql.map((g, i) => g.rps / t.bare[i]!.rps));
    summary.add('REST GET /api/sleeve-options / bare GET', 'ratio', t.rest.map((r, i) => r.rps / t.bare[i]!.rps));
    console.log('');
    const orders = await repeat('orders created and paid', ROUNDS, () => ordersPerSecond([gateway.url], SECONDS));
    summary.add('orders created and paid, SQLite', '/s', orders);
  } finally {
    await gateway.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bench/fanout.ts in a child process of its own; its last line is a JSON summary of the run. */
function fanoutOnce(): Promise<Record<string, number | null>> {
  console.log('fan-out: holdCountdown subscribers held with p99 tick lag < 100 ms, against bare ws…');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, runnerArgs('bench/fanout.ts'), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const last = output.trim().split('\n').reverse().find((line) => line.startsWith('{'));
      if (code !== 0 || !last) return reject(new Error(`fan-out exited with ${code}`));
      resolve(JSON.parse(last) as Record<string, number | null>);
    });
  });
}

async function main() {
  await area('request path and orders', null, requestPath);
  await area('orders by SQLITE_SYNCHRONOUS', 'BENCH_SYNC', async () => {
    const s = await ordersBySynchronous(SECONDS, ROUNDS);
    printSynchronousFigure(s, SECONDS);
    summary.add('orders, SQLITE_SYNCHRONOUS full / normal', 'ratio', s.full.map((full, i) => full / s.normal[i]!));
  });

  // One figure per area, each measured against its own baseline (an environment variable set to 0 leaves it out).
  await area('payments', 'BENCH_PAYMENTS', async () => {
    const runs = await repeat('payments', ROUNDS, () => benchPayments(SECONDS), (figure) => printPaymentsFigure(figure, SECONDS));
    summary.add('POST /api/payments / bare node:http (not the same work)', 'ratio', runs.map((r) => r.ratio));
    summary.add('POST /api/payments, SQLITE_SYNCHRONOUS full / normal', 'ratio', runs.map((r) => r.synchronousRatio));
  });
  await area('decisions', 'BENCH_DECISIONS', async () => {
    const runs = await repeat('decisions', ROUNDS, () => benchDecisions(SECONDS), (figure) => printDecisionsFigure(figure, SECONDS));
    summary.add('profile-access decisions / bare node:http (not the same work)', 'ratio', runs.map((r) => r.ratio));
  });
  // The write paths against raw drivers doing the same durable work, SQLite and PostgreSQL (bench/write-baseline.ts).
  await area('write paths', 'BENCH_WRITE', async () => {
    const figures = await benchWriteBaselines(SECONDS, ROUNDS);
    printWriteBaselines(figures, SECONDS);
    const what = { orders: 'order created and paid', payments: 'POST /api/payments', decisions: 'profile-access decision' };
    for (const { dialect, flows } of figures) {
      const raw = dialect === 'sqlite' ? 'raw better-sqlite3' : 'raw pg';
      for (const flow of flows) {
        summary.add(`${what[flow.flow]} / ${raw}, same durable work`, 'ratio', flow.ratios, atLeast(0.5));
        const each = flow.commitEach.map((b, round) => flow.gateway[round]! / b);
        if (each.length > 0) summary.add(`${what[flow.flow]} / ${raw} with a COMMIT per transaction`, 'ratio', each);
        if (flow.http.length > 0) {
          // The ceiling: a bare node:http server running the baseline's statements (bench/write-baseline-http.ts).
          summary.add(`${what[flow.flow]}: bare node:http on ${raw}'s statements / ${raw} (the ceiling)`, 'ratio', flow.http.map((h, round) => h / flow.baseline[round]!));
          summary.add(`${what[flow.flow]} / bare node:http on ${raw}'s statements`, 'ratio', flow.http.map((h, round) => flow.gateway[round]! / h));
        }
      }
    }
  });
  await area('notifications', 'BENCH_NOTIFY', async () => {
    const runs = await repeat('notifications', ROUNDS, () => benchNotifications(), (figure) => printNotificationFigures(figure));
    summary.add('notifications delivered / direct POSTs', 'ratio', runs.map((r) => r.ratio));
    summary.add('notifications, change → delivery p99', 'ms', runs.map((r) => r.latencyP99));
  });
  await area("merchants' endpoints", 'BENCH_HOOKS', async () => {
    const runs = await repeat("merchants' endpoints", ROUNDS, () => benchWebhooks(), (figure) => printWebhookFigures(figure));
    summary.add('merchant endpoints: p99 beside a hanging endpoint / alone', 'ratio', runs.map((r) => r.isolation), atMost(1.2));
    summary.add('merchant endpoints: delivered / direct POSTs', 'ratio', runs.map((r) => r.throughput), atLeast(0.8));
    summary.add('merchant endpoints: delivered per second', '/s', runs.map((r) => r.deliveredPerSecond));
    summary.add('merchant endpoints: direct POSTs per second (the baseline)', '/s', runs.map((r) => r.directPerSecond));
    summary.add('merchant endpoints: durable work without the gateway / direct POSTs (the ceiling)', 'ratio', runs.map((r) => r.ceiling));
    summary.add('merchant endpoints: delivered / durable work without the gateway', 'ratio', runs.map((r) => r.deliveredPerSecond / r.durablePerSecond));
  });
  await area('PostgreSQL scale-out', 'BENCH_SCALE', async () => {
    const runs = await repeat('orders on PostgreSQL', ROUNDS, () => benchScale(SECONDS), (figure) => printScaleFigures(figure));
    summary.add('orders on PostgreSQL, two instances / one', 'ratio', runs.map((r) => r?.ratio));
  });
  await area('venue', 'BENCH_VENUE', async () => {
    const v = await benchVenue();
    printVenueFigure(v);
    summary.add("venue: the limiter's cost, on / off", 'ratio', v.limiterOn.map((on, i) => on / v.limiterOff[i]!), atLeast(0.95));
    for (const run of v.paced) summary.add(`venue: 429s ${run.label}, one event`, 'count', [run.limited], atMost(0));
  });
  await area('metrics and request logs', 'BENCH_OBSERVABILITY', async () => {
    const o = await benchObservability(ROUNDS, SECONDS);
    printObservabilityFigure(o);
    summary.add('metrics and request logs on / off, GraphQL', 'ratio', o.graphql.on.map((on, i) => on / o.graphql.off[i]!), atLeast(0.95));
    summary.add('metrics and request logs on / off, REST', 'ratio', o.rest.on.map((on, i) => on / o.rest.off[i]!), atLeast(0.95));
    summary.add('metrics and request logs, CPU per request off / on, GraphQL', 'ratio', o.cpu.graphql.off.map((off, i) => off / o.cpu.graphql.on[i]!));
    summary.add('metrics and request logs, CPU per request off / on, REST', 'ratio', o.cpu.rest.off.map((off, i) => off / o.cpu.rest.on[i]!));
  });
  await area('MCP', 'BENCH_MCP', async () => {
    const m = await benchMcp(SECONDS, ROUNDS);
    printMcpFigure(m, SECONDS);
    summary.add('MCP get_sleeve_options / REST GET', 'ratio', m.mcp.map((mcp, i) => mcp / m.rest[i]!));
  });

  // The subscription fan-out (bench/fanout.ts, about five minutes a run): BENCH_FANOUT=0 leaves it out.
  await area('fan-out', 'BENCH_FANOUT', async () => {
    const runs = await repeat('fan-out', FANOUT_ROUNDS, fanoutOnce);
    summary.add('fan-out: subscribers held, gateway / bare ws', 'ratio', runs.map((r) => r.ratio), atLeast(0.9));
    summary.add('fan-out: server CPU per subscriber, gateway / bare', 'ratio', runs.map((r) => r.cpuRatio), atMost(1.5));
    summary.add('fan-out: subscribers held by the gateway', 'subscribers', runs.map((r) => r.gateway));
    // Only when FANOUT_TARGETS includes gateway2.
    const twoInstances = runs.map((r) => (r.twoInstances && r.gateway ? r.twoInstances / r.gateway : null));
    if (twoInstances.some((value) => value !== null)) summary.add('fan-out: two instances / one', 'ratio', twoInstances);
    // Only when FANOUT_TARGETS includes graphql-ws: the protocol library's own server, and the gateway over it.
    if (runs.some((r) => r.graphqlWsCpuRatio !== null)) {
      summary.add("fan-out: server CPU per subscriber, graphql-ws's server / bare", 'ratio', runs.map((r) => r.graphqlWsCpuRatio));
      summary.add("fan-out: server CPU per subscriber, gateway / graphql-ws's server", 'ratio', runs.map((r) => r.cpuRatioOverGraphqlWs));
    }
  });

  summary.finish();
  if (summary.results.failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
