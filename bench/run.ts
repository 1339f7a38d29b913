/**
 * `npm run bench`: the gateway and a bare node:http baseline, each in its own process, loaded in turn by
 * autocannon (64 connections, 10 s each, after a warm-up; alternated over 3 rounds, medians reported).
 * Figures are ratios to the baseline measured in the same run: absolute numbers drift with the shared cores.
 *
 * Then one figure per area, each against its own baseline in the same run: payments through /api/payments
 * (bench/payments.ts), profile-access decisions (bench/decisions.ts), notifications delivered and change → delivery
 * time (bench/notifications.ts), orders on PostgreSQL with one and two instances (bench/scale.ts), and the
 * subscription fan-out (bench/fanout.ts), and the venue: 2,000 attendees behind one address, wrong 429s and the
 * limiter's cost (bench/venue.ts), and the cost of metrics and request logs, on vs off (bench/observability.ts).
 *
 * The orders and payments figures also compare SQLITE_SYNCHRONOUS=full (the default) with normal in the same run
 * (bench/orders.ts, bench/payments.ts; docs/running.md#durability-of-the-embedded-database).
 *
 * Environment: BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3); BENCH_SYNC=0, BENCH_PAYMENTS=0,
 * BENCH_DECISIONS=0, BENCH_NOTIFY=0, BENCH_SCALE=0, BENCH_VENUE=0, BENCH_OBSERVABILITY=0 and BENCH_FANOUT=0 leave the matching figure out
 * (BENCH_VENUE_SECONDS, default 30: the venue's compressed 10-minute event).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { load, median, ROOT, row, startChild, type LoadResult, type Target } from './lib.ts';
import { benchDecisions, printDecisionsFigure } from './decisions.ts';
import { benchNotifications, printNotificationFigures } from './notifications.ts';
import { ordersBySynchronous, ordersPerSecond, printSynchronousFigure } from './orders.ts';
import { benchPayments, printPaymentsFigure } from './payments.ts';
import { benchScale, printScaleFigures } from './scale.ts';
import { benchVenue, printVenueFigure } from './venue.ts';
import { benchObservability, printObservabilityFigure } from './observability.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GRAPHQL_BODY = JSON.stringify({ query: '{ sleeveOptions { sizes fonts threads charLimit } }' });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-'));
  const gateway = await startChild('src/main.ts', {
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    // The limiter still runs on every request; the limits are just out of reach of one load generator.
    RATE_LIMIT_READ: '10000000',
    RATE_LIMIT_WRITE: '10000000',
  });
  const optionsJson = await (await fetch(`${gateway.url}/api/sleeve-options`)).text();
  const graphqlJson = await (
    await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: GRAPHQL_BODY })
  ).text();
  if (!graphqlJson.includes('"sizes"')) throw new Error(`GraphQL answered: ${graphqlJson}`);
  const bare = await startChild('bench/bare-server.ts', { BARE_BODY: optionsJson });

  const targets: Record<'bare' | 'rest' | 'graphql', Target> = {
    bare: { url: `${bare.url}/api/sleeve-options` },
    rest: { url: `${gateway.url}/api/sleeve-options` },
    graphql: {
      url: `${gateway.url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: GRAPHQL_BODY,
    },
  };
  type Name = keyof typeof targets;
  const results: Record<Name, LoadResult[]> = { bare: [], rest: [], graphql: [] };

  console.log(`warming up (${Object.keys(targets).length} × 3 s)…`);
  for (const target of Object.values(targets)) await load(target, { duration: 3 });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of Object.keys(targets) as Name[]) {
      const result = await load(targets[name], { duration: SECONDS });
      if (result.failures > 0) throw new Error(`${name}: ${result.failures} failed requests`);
      results[name].push(result);
      console.log(`round ${round} ${name.padEnd(8)} ${result.rps.toFixed(0)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms`);
    }
  }

  const orders = await ordersPerSecond([gateway.url], SECONDS);
  await Promise.all([gateway.stop(), bare.stop()]);
  rmSync(dir, { recursive: true, force: true });

  const bareRps = median(results.bare.map((r) => r.rps));
  const widths = [34, 12, 10, 10, 14];
  console.log(`\nmedians of ${ROUNDS} rounds, 64 connections, ${SECONDS} s each`);
  console.log(row(['target', 'req/s', 'p50 ms', 'p99 ms', 'ratio to bare'], widths));
  const labels: Record<Name, string> = {
    bare: 'bare node:http (baseline)',
    rest: 'REST GET /api/sleeve-options',
    graphql: 'GraphQL { sleeveOptions }',
  };
  for (const name of Object.keys(targets) as Name[]) {
    const rps = median(results[name].map((r) => r.rps));
    console.log(
      row(
        [labels[name], rps.toFixed(0), median(results[name].map((r) => r.p50)), median(results[name].map((r) => r.p99)), (rps / bareRps).toFixed(2)],
        widths,
      ),
    );
  }
  console.log(`\norders created and paid (vendor_card) on SQLite: ${orders.toFixed(0)} per second`);
  if (process.env.BENCH_SYNC !== '0') {
    console.log('');
    printSynchronousFigure(await ordersBySynchronous(SECONDS, ROUNDS), SECONDS);
  }

  // One figure per area, each measured against its own baseline (an environment variable set to 0 leaves it out).
  if (process.env.BENCH_PAYMENTS !== '0') {
    console.log('');
    printPaymentsFigure(await benchPayments(SECONDS), SECONDS);
  }
  if (process.env.BENCH_DECISIONS !== '0') {
    console.log('');
    printDecisionsFigure(await benchDecisions(SECONDS), SECONDS);
  }
  if (process.env.BENCH_NOTIFY !== '0') {
    console.log('');
    printNotificationFigures(await benchNotifications());
  }
  if (process.env.BENCH_SCALE !== '0') {
    console.log('');
    printScaleFigures(await benchScale(SECONDS));
  }
  if (process.env.BENCH_VENUE !== '0') {
    console.log('');
    printVenueFigure(await benchVenue());
  }
  if (process.env.BENCH_OBSERVABILITY !== '0') {
    console.log('');
    printObservabilityFigure(await benchObservability());
  }

  // The subscription fan-out figure (bench/fanout.ts, about five minutes): BENCH_FANOUT=0 leaves it out.
  if (process.env.BENCH_FANOUT !== '0') {
    console.log('\nfan-out: holdCountdown subscribers held with p99 tick lag < 100 ms, against bare ws…');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fanout.ts'], { cwd: ROOT, stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fan-out exited with ${code}`))));
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
