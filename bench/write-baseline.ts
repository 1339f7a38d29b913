/**
 * Honest limits for the write path (issue 21, part 2): the gateway's three write paths against a baseline that does
 * the same durable work with no gateway, on SQLite and on PostgreSQL. Each figure is gateway req/s ÷ baseline ops/s,
 * both measured in the same round, over BENCH_ROUNDS rounds (which one goes first alternates), with their spread.
 *
 *  - orders: POST /api/orders then POST /api/orders/{n}/pay with vendor_card, 16 connections (bench/orders.ts).
 *  - payments: POST /api/payments, a fresh Idempotency-Key and an inline card, 32 connections (bench/payments.ts).
 *  - decisions: POST /v2/accounts/profile-access/{id}, bench/decisions.ts's requests with their eventTimes spread
 *    out (decisionBody in bench/write-baseline-flows.ts says why), 32 connections.
 * Each flow also has a ceiling: a bare node:http server running the baseline's statements the same way
 * (bench/write-baseline-http.ts), loaded as the gateway is. Its rate over the baseline's is the most any HTTP server of
 * the flow reaches here; the gateway's over its own is what the gateway's work per request costs beyond HTTP.
 * The baseline (bench/write-baseline-worker.ts, bench/write-baseline-flows.ts) runs in a process of its own, from
 * as many callers as the gateway has connections, the statements of one request in the same transactions, on a
 * schema made by the project's migrations, with the gateway's pragmas and pool size.
 * On SQLite it commits as the gateway does, in groups (src/db/group-commit.ts, bench/write-baseline-sqlite.ts):
 * the same WAL syncs per request, not only the same rows. Each round also runs it with a COMMIT per transaction,
 * the way the gateway committed before, and prints what the gateway makes of that.
 *
 * How the baseline was checked to do the same durable work, printed by every run:
 *  1. Statements: a gateway with bench/write-trace-hook.ts preloaded (it counts every statement at the drivers'
 *     entry points, below kysely) serves CHECK_OPS requests of each path one at a time, and the baseline runs as
 *     many operations; the two lists of statement texts with their counts per operation are compared, and every
 *     difference is printed (a statement of a background job, such as the outbox dispatcher's, shows as gateway-only
 *     with a count below one). The statements of a request are the same text in both; the baseline's SQL was
 *     written from kysely's compiled output and the trace of the gateway.
 *  2. Rows: after the rounds, the rows each path wrote per operation are counted in both databases (pay tokens and
 *     order payments per order; vault tokens, processor charges and idempotency keys per payment; outbox
 *     notifications per decision), and printed side by side.
 *
 * Alone: `npx tsx bench/write-baseline.ts` after `node scripts/build.mjs` (BENCH_SECONDS, default 10;
 * BENCH_ROUNDS, default 3; BENCH_WRITE_PG=0 leaves PostgreSQL out, BENCH_WRITE_SQLITE=0 SQLite, BENCH_PG_URL picks another server,
 * BENCH_WRITE_FLOWS=orders,payments some flows only).
 * From bench/run.ts: `printWriteBaselines(await benchWriteBaselines(seconds, rounds), seconds)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { GATEWAY_ENTRY, loadInProcess, median, startChild, type Child } from './lib.ts';
import { ordersPerSecond } from './orders.ts';
import { AUTH, decisionBody, GATEWAY_ENV, PAYMENT_BODY, SITE_ID } from './write-baseline-flows.ts';
import { startWorker, type Flow, type Worker } from './write-baseline-worker.ts';
import { checkStatements, countRows, printChecks, type RowCheck, type StatementCheck } from './write-baseline-check.ts';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const CONNECTIONS: Record<Flow, number> = { orders: 16, payments: 32, decisions: 32 };
/** BENCH_WRITE_FLOWS (comma-separated) measures only those. */
const FLOWS = (process.env.BENCH_WRITE_FLOWS?.split(',') ?? ['orders', 'payments', 'decisions']) as Flow[];
for (const flow of FLOWS) if (!(flow in CONNECTIONS)) throw new Error(`BENCH_WRITE_FLOWS: "${flow}" is none of ${Object.keys(CONNECTIONS).join(', ')}`);


export interface FlowFigure {
  flow: Flow;
  gateway: number[];
  baseline: number[];
  ratios: number[];
  /** SQLite: the baseline again with a COMMIT per transaction (no group commit), once per round. */
  commitEach: number[];
  /** A bare node:http server running the baseline's statements (bench/write-baseline-http.ts), per round. */
  http: number[];
}

export interface DialectFigure {
  dialect: 'sqlite' | 'postgres';
  flows: FlowFigure[];
  statements: StatementCheck[];
  rows: RowCheck[];
}

/** Gateway requests (or orders, created and paid) per second for one flow. */
export async function loadGateway(flow: Flow, base: string, seconds: number, run: string, epoch = 0): Promise<number> {
  if (flow === 'orders') return ordersPerSecond([base], seconds);
  let seq = 0;
  const request =
    flow === 'payments'
      ? { method: 'POST', path: '/api/payments', setupRequest: (r: object) => ({ ...r, headers: { ...AUTH, 'idempotency-key': `${run}-${++seq}` }, body: PAYMENT_BODY }) }
      : {
          method: 'POST',
          headers: { ...AUTH, 'x-vendor-siteid': SITE_ID, 'api-version': '10.3' },
          setupRequest: (r: object) => {
            const n = ++seq;
            return { ...r, path: `/v2/accounts/profile-access/${run}-${n}`, body: JSON.stringify(decisionBody(n, epoch)) };
          },
        };
  const result = await loadInProcess({ url: base, connections: CONNECTIONS[flow], duration: seconds, requests: [request] });
  if (result.failures > 0) throw new Error(`${flow} on ${base}: ${result.failures} failed requests`);
  return result.rps;
}

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function benchDialect(dialect: 'sqlite' | 'postgres', seconds: number, rounds: number): Promise<DialectFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-write-'));
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const target = (name: string) => (dialect === 'sqlite' ? join(dir, `${name}.db`) : `${PG_URL}?schema=wb_${name}_${tag}`);
  const url = (name: string) => (dialect === 'sqlite' ? `file:${target(name)}` : target(name));
  const schemas = ['gateway', 'baseline', 'http', 'checkgw', 'checkbl'].map((name) => `wb_${name}_${tag}`);
  let gateway: Child | undefined;
  let worker: Worker | undefined;
  let http: Child | undefined;
  try {
    const statements = await checkStatements(url('checkgw'), target('checkbl'));
    gateway = await startChild(GATEWAY_ENTRY, { DATABASE_URL: url('gateway'), ...GATEWAY_ENV });
    worker = await startWorker(target('baseline'));
    http = await startChild('bench/write-baseline-http.ts', { WB_TARGET: target('http') });
    const flows: FlowFigure[] = [];
    for (const flow of FLOWS) {
      const figure: FlowFigure = { flow, gateway: [], baseline: [], ratios: [], commitEach: [], http: [] };
      const callers = CONNECTIONS[flow];
      await loadGateway(flow, gateway.url, 2, `warm-${flow}`);
      await worker.ask({ flow, seconds: 2, callers, run: `warm-${flow}` });
      await loadGateway(flow, http.url, 2, `warm-${flow}-http`);
      for (let round = 0; round < rounds; round++) {
        const measureGateway = () => loadGateway(flow, gateway!.url, seconds, `run${round}-${flow}`, round + 1);
        const measureBaseline = async (commitEach = false) => {
          const run = `run${round}-${flow}${commitEach ? '-each' : ''}`;
          const result = await worker!.ask({ flow, seconds, callers, run, epoch: round + 1, commitEach });
          return result.ops / result.elapsed;
        };
        const measureHttp = async () => figure.http.push(await loadGateway(flow, http!.url, seconds, `run${round}-${flow}-http`, round + 1));
        // Alternate which goes first, so a drift of the shared cores favours neither.
        let g: number;
        let b: number;
        if (round % 2 === 0) {
          g = await measureGateway();
          b = await measureBaseline();
          await measureHttp();
        } else {
          await measureHttp();
          b = await measureBaseline();
          g = await measureGateway();
        }
        figure.gateway.push(g);
        figure.baseline.push(b);
        figure.ratios.push(g / b);
        if (dialect === 'sqlite') figure.commitEach.push(await measureBaseline(true));
      }
      flows.push(figure);
    }
    const rows = await countRows(dialect === 'sqlite' ? { gateway: target('gateway'), baseline: target('baseline') } : { pg: PG_URL, gateway: schemas[0]!, baseline: schemas[1]! });
    return { dialect, flows, statements, rows };
  } finally {
    worker?.stop();
    await Promise.all([gateway?.stop(), http?.stop()]);
    rmSync(dir, { recursive: true, force: true });
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }
}

export async function benchWriteBaselines(seconds = 10, rounds = 3): Promise<DialectFigure[]> {
  const figures = process.env.BENCH_WRITE_SQLITE === '0' ? [] : [await benchDialect('sqlite', seconds, rounds)];
  if (process.env.BENCH_WRITE_PG !== '0') {
    if (await pgReachable()) figures.push(await benchDialect('postgres', seconds, rounds));
    else console.log(`write baselines: no PostgreSQL at ${PG_URL}; its figures are left out`);
  }
  return figures;
}

export function printWriteBaselines(figures: DialectFigure[], seconds: number): void {
  const what: Record<Flow, string> = { orders: 'orders created+paid', payments: 'POST /api/payments', decisions: 'profile-access decisions' };
  for (const { dialect, flows, statements, rows } of figures) {
    console.log(`write path against raw ${dialect === 'sqlite' ? 'better-sqlite3' : 'pg'} doing the same durable work, ${flows[0]?.ratios.length ?? 0} rounds of ${seconds} s:`);
    for (const { flow, gateway, baseline, ratios, commitEach, http } of flows) {
      const list = ratios.map((r) => r.toFixed(2)).join(', ');
      console.log(
        `  ${what[flow].padEnd(26)} gateway ${median(gateway).toFixed(0).padStart(6)}/s  baseline ${median(baseline).toFixed(0).padStart(6)}/s  ` +
          `ratio ${median(ratios).toFixed(2)} (rounds ${list}; spread ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; ${CONNECTIONS[flow]} callers)`,
      );
      if (commitEach.length > 0) {
        const each = median(commitEach);
        console.log(`  ${''.padEnd(26)} baseline with a COMMIT per transaction ${each.toFixed(0)}/s: the gateway makes ${(median(gateway) / each).toFixed(2)} of it`);
      }
      if (http.length > 0) {
        const ceiling = http.map((h, round) => (h / baseline[round]!).toFixed(2)).join(', ');
        const share = http.map((h, round) => (gateway[round]! / h).toFixed(2)).join(', ');
        console.log(`  ${''.padEnd(26)} bare node:http on the baseline's statements ${median(http).toFixed(0)}/s: / baseline ${ceiling} (the ceiling); gateway / it ${share}`);
      }
    }
    printChecks(statements, rows);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  benchWriteBaselines(seconds, Number(process.env.BENCH_ROUNDS ?? 3))
    .then((figures) => printWriteBaselines(figures, seconds))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
