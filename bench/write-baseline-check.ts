/**
 * The two checks bench/write-baseline.ts prints with its figures, that its baselines do the gateway's durable work:
 *  - checkStatements: the statements of CHECK_OPS requests of each write path, counted by a gateway with
 *    bench/write-trace-hook.ts preloaded (below kysely, at the drivers), against those of as many baseline
 *    operations; every text whose count per operation differs is listed.
 *  - countRows: after the measured rounds, the rows written per operation in the gateway's database and the
 *    baseline's (counted by SQL in each).
 */
import { spawn } from 'node:child_process';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { GATEWAY_ENTRY, ROOT } from './lib.ts';
import { AUTH, decisionBody, GATEWAY_ENV, PAYMENT_BODY, SITE_ID } from './write-baseline-flows.ts';
import { startWorker, type Flow } from './write-baseline-worker.ts';

const CHECK_OPS = 20;

export interface StatementCheck {
  flow: Flow;
  /** Statements per operation, in all. */
  gateway: number;
  baseline: number;
  /** Statement texts run the same number of times per operation by both. */
  same: number;
  differences: Array<{ sql: string; gateway: number; baseline: number }>;
}

export interface RowCheck {
  what: string;
  gateway: number;
  baseline: number;
}

async function gatewayOnce(flow: Flow, base: string, i: number): Promise<void> {
  const post = async (path: string, headers: Record<string, string>, body: string, status: number) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, string>;
  };
  if (flow === 'orders') {
    const body = { email: `check-${i}@example.com`, name: 'Bench Mark', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'FAST' };
    const order = await post('/api/orders', { 'content-type': 'application/json' }, JSON.stringify(body), 201);
    await post(`/api/orders/${order.orderNumber}/pay`, { 'content-type': 'application/json' }, JSON.stringify({ t: order.payToken, method: 'vendor_card' }), 200);
  } else if (flow === 'payments') {
    await post('/api/payments', { ...AUTH, 'idempotency-key': `check-${i}` }, PAYMENT_BODY, 201);
  } else {
    await post(`/v2/accounts/profile-access/check-${i}`, { ...AUTH, 'x-vendor-siteid': SITE_ID, 'api-version': '10.3' }, JSON.stringify(decisionBody(i)), 200);
  }
}

/** A gateway with the statement counter preloaded, on its own database; `ask` talks to the hook. */
async function tracedGateway(databaseUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './bench/write-trace-hook.ts', GATEWAY_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...GATEWAY_ENV },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/u.exec(output);
      if (match) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`traced gateway exited with ${code}:\n${output}`)));
  });
  return {
    url,
    reset: () => void child.send('reset'),
    counts: () =>
      new Promise<Record<string, number>>((done) => {
        child.once('message', (message) => done(message as Record<string, number>));
        child.send('counts');
      }),
    stop: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
  };
}

export async function checkStatements(gatewayDatabaseUrl: string, baselineTarget: string): Promise<StatementCheck[]> {
  const gateway = await tracedGateway(gatewayDatabaseUrl);
  const worker = await startWorker(baselineTarget);
  try {
    const checks: StatementCheck[] = [];
    for (const flow of ['orders', 'payments', 'decisions'] as const) {
      gateway.reset();
      for (let i = 1; i <= CHECK_OPS; i++) await gatewayOnce(flow, gateway.url, i);
      const seen = await gateway.counts();
      const { statements: done } = await worker.ask({ flow, seconds: 0, callers: 1, run: 'check', ops: CHECK_OPS });
      const check: StatementCheck = { flow, gateway: 0, baseline: 0, same: 0, differences: [] };
      for (const sql of new Set([...Object.keys(seen), ...Object.keys(done)])) {
        const g = (seen[sql] ?? 0) / CHECK_OPS;
        const b = (done[sql] ?? 0) / CHECK_OPS;
        check.gateway += g;
        check.baseline += b;
        if (g === b) check.same++;
        else check.differences.push({ sql, gateway: g, baseline: b });
      }
      checks.push(check);
    }
    return checks;
  } finally {
    worker.stop();
    await gateway.stop();
  }
}

/** Rows per operation (null, printed 0, for a flow not measured: BENCH_WRITE_FLOWS). */
const ROW_CHECKS: Array<[string, string]> = [
  ['order pay tokens per order', 'select (select count(*) from order_pay_tokens) * 1.0 / nullif((select count(*) from orders), 0) as v'],
  ['order payments per order', 'select (select count(*) from order_payments) * 1.0 / nullif((select count(*) from orders), 0) as v'],
  ['vault tokens per payment', 'select (select count(*) from vault_tokens) * 1.0 / nullif((select count(*) from payments), 0) as v'],
  ['processor charges per payment', 'select (select count(*) from sandbox_charges) * 1.0 / nullif((select count(*) from payments), 0) as v'],
  ['idempotency keys per payment', "select (select count(*) from idempotency_keys where state = 'done') * 1.0 / nullif((select count(*) from payments), 0) as v"],
  ['CVCs left per payment', 'select (select count(*) from vault_tokens where cvc_sealed is not null) * 1.0 / nullif((select count(*) from payments), 0) as v'],
  ['notifications per decision', 'select (select count(*) from outbox_notifications) * 1.0 / nullif((select count(*) from account_requests), 0) as v'],
  ['APPROVE share of decisions', "select (select count(*) from account_requests where vendor_decision = 'APPROVE') * 1.0 / nullif((select count(*) from account_requests), 0) as v"],
];

export async function countRows(where: { gateway: string; baseline: string; pg?: string }): Promise<RowCheck[]> {
  const values = async (place: string): Promise<number[]> => {
    if (!where.pg) {
      const db = new SQLite(place, { readonly: true });
      try {
        return ROW_CHECKS.map(([, sql]) => Number((db.prepare(sql).get() as { v: number }).v));
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: where.pg, options: `-c search_path=${place}` });
    await client.connect();
    try {
      const out: number[] = [];
      for (const [, sql] of ROW_CHECKS) out.push(Number((await client.query<{ v: string }>(sql)).rows[0]!.v));
      return out;
    } finally {
      await client.end();
    }
  };
  const [g, b] = [await values(where.gateway), await values(where.baseline)];
  return ROW_CHECKS.map(([what], i) => ({ what, gateway: g[i]!, baseline: b[i]! }));
}

export function printChecks(statements: StatementCheck[], rows: RowCheck[]): void {
  console.log(`  check 1, statements per operation over ${CHECK_OPS} operations (gateway traced at its drivers / baseline):`);
  for (const { flow, gateway, baseline, same, differences } of statements) {
    console.log(`    ${flow}: ${gateway.toFixed(2)} / ${baseline.toFixed(2)}; ${same} statement texts the same, ${differences.length} differ${differences.length ? ':' : ''}`);
    for (const d of differences) console.log(`      ${d.gateway.toFixed(2)} / ${d.baseline.toFixed(2)}  ${d.sql.slice(0, 140)}`);
  }
  console.log('  check 2, rows written after the rounds (gateway / baseline):');
  for (const { what, gateway, baseline } of rows) console.log(`    ${what.padEnd(32)} ${gateway.toFixed(3)} / ${baseline.toFixed(3)}`);
}
