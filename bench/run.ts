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
 * Environment: BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3); BENCH_SYNC=0, BENCH_PAYMENTS=0,
 * BENCH_DECISIONS=0, BENCH_WRITE=0, BENCH_NOTIFY=0, BENCH_HOOKS=0, BENCH_SCALE=0, BENCH_VENUE=0, BENCH_OBSERVABILITY=0, BENCH_MCP=0 and BENCH_FANOUT=0 leave the matching figure out
 * (BENCH_VENUE_SECONDS, default 30: the venue's compressed 10-minute event).
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-'));
  const gateway = await startChild(GATEWAY_ENTRY, {
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    // The limiter still runs on every request; the limits are just out of reach of one load generator.
    RATE_LIMIT_READ: '10000000',
    RATE_LIMIT_WRITE: '10000000',
  });
  const throughput = await benchThroughput(gateway.url, SECONDS, ROUNDS);

  const orders = await ordersPerSecond([gateway.url], SECONDS);
  await gateway.stop();
  rmSync(dir, { recursive: true, force: true });

  printThroughputFigure(throughput, SECONDS);
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
  // The write paths against raw drivers doing the same durable work, SQLite and PostgreSQL (bench/write-baseline.ts).
  if (process.env.BENCH_WRITE !== '0') {
    console.log('');
    printWriteBaselines(await benchWriteBaselines(SECONDS, ROUNDS), SECONDS);
  }
  if (process.env.BENCH_NOTIFY !== '0') {
    console.log('');
    printNotificationFigures(await benchNotifications());
  }
  if (process.env.BENCH_HOOKS !== '0') {
    console.log('');
    printWebhookFigures(await benchWebhooks());
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
  if (process.env.BENCH_MCP !== '0') {
    console.log('');
    printMcpFigure(await benchMcp(SECONDS, ROUNDS), SECONDS);
  }

  // The subscription fan-out figure (bench/fanout.ts, about five minutes): BENCH_FANOUT=0 leaves it out.
  if (process.env.BENCH_FANOUT !== '0') {
    console.log('\nfan-out: holdCountdown subscribers held with p99 tick lag < 100 ms, against bare ws…');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, runnerArgs('bench/fanout.ts'), { cwd: ROOT, stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fan-out exited with ${code}`))));
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
