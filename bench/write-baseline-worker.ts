/**
 * The write-path baselines' process (started by bench/write-baseline.ts, one per database, kept for its rounds):
 * the schema made by the project's own migrations (createDatabase(...).migrate(), on a fresh SQLite file or a fresh
 * PostgreSQL schema), then raw better-sqlite3 or raw pg running bench/write-baseline-flows.ts from as many callers
 * as the gateway's load has connections. Asked over IPC: { flow, seconds, callers, run } → { ops, elapsed, statements }.
 *
 * How the callers are modelled, as the gateway runs them:
 *  - SQLite: raw better-sqlite3 committing in groups as the gateway does (bench/write-baseline-sqlite.ts).
 *  - PostgreSQL: a pg.Pool of 10 (as the gateway's), statements outside a transaction on any pooled connection,
 *    each transaction on one, begin … commit; named (server-side prepared) statements, the best raw pg can do.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase } from '../src/db/database.ts';
import { hashToken } from '../src/kernel/tokens.ts';
import { upsertBootstrapSite } from '../src/sites/site-repository.ts';
import { API_KEY, decision, decisionBody, orderCreateAndPay, payment, PAYMENT_CANONICAL, SITE_ID, vaultCrypto, type Row, type Runner } from './write-baseline-flows.ts';
import { ROOT } from './lib.ts';
import { sqliteRunner, type CommitPolicy } from './write-baseline-sqlite.ts';
import { MAX_MEMBERS } from '../src/db/group-commit.ts';

export type Flow = 'orders' | 'payments' | 'decisions';
export interface WorkerRequest {
  flow: Flow;
  seconds: number;
  callers: number;
  run: string;
  ops?: number;
  epoch?: number;
  /** SQLite: a COMMIT per transaction instead of the gateway's group commit. */
  commitEach?: boolean;
}
export interface WorkerResult { ops: number; elapsed: number; statements: Record<string, number> }

export const HOLD_SECONDS = 600;
const INT8_OID = 20;

/** Every statement run, by its text (whitespace collapsed), for the comparison with the gateway's. */
const statements = new Map<string, number>();
const count = (sql: string) => {
  const key = sql.replace(/\s+/gu, ' ').trim();
  statements.set(key, (statements.get(key) ?? 0) + 1);
};

function pgRunner(url: string): Runner {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    types: { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as never)) } as never,
  });
  const names = new Map<string, { name: string; text: string }>();
  const prepared = (sql: string) => {
    let known = names.get(sql);
    if (!known) {
      let n = 0;
      known = { name: `wb${names.size}`, text: sql.replace(/\?/gu, () => `$${++n}`) };
      names.set(sql, known);
    }
    return known;
  };
  const on = (client: pg.Pool | pg.PoolClient) => async (sql: string, params: unknown[]) => {
    const statement = prepared(sql);
    count(statement.text);
    const result = await client.query({ ...statement, values: params });
    return { rows: result.rows as Row[], changes: result.rowCount ?? 0 };
  };
  return {
    multipleConnections: true,
    q: on(pool),
    async tx(body) {
      const client = await pool.connect();
      const q = on(client);
      try {
        await q('begin', []);
        const result = await body({ multipleConnections: true, q, tx: () => Promise.reject(new Error('nested transaction')) });
        await q('commit', []);
        return result;
      } catch (error) {
        await q('rollback', []).catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

const policy: CommitPolicy = { maxMembers: MAX_MEMBERS };

/** The schema made on `target` (a SQLite path, or a PostgreSQL URL with ?schema=), then its raw runner. */
export async function openRunner(target: string, synchronous = 'full'): Promise<Runner> {
  const postgres = target.startsWith('postgres');
  // The schema as the gateway makes it: the project's migrations, through its own createDatabase.
  const app = await createDatabase(postgres ? { kind: 'postgres', url: target } : { kind: 'sqlite', path: target, synchronous: synchronous as 'full' });
  await app.migrate();
  // The site the payments and decisions authenticate as, made as the gateway's start makes it (VENDOR_SITE_ID).
  await upsertBootstrapSite(app.db, SITE_ID, hashToken(API_KEY), Date.now());
  await app.destroy();
  return postgres ? pgRunner(target) : sqliteRunner(target, synchronous, count, policy);
}

export function main(): void {
  const crypto = vaultCrypto(randomBytes(32));
  const publicUrl = 'http://127.0.0.1';
  const ready = openRunner(process.env.WB_TARGET!, process.env.WB_SYNCHRONOUS);
  process.on('message', (request: WorkerRequest) => {
    void (async () => {
      const runner = await ready;
      statements.clear();
      policy.maxMembers = request.commitEach ? 1 : MAX_MEMBERS;
      let seq = 0;
      const one = (n: number): Promise<void> => {
        const id = `${request.run}-${n}`;
        if (request.flow === 'orders') return orderCreateAndPay(runner, HOLD_SECONDS, id);
        if (request.flow === 'payments') return payment(runner, crypto, SITE_ID, PAYMENT_CANONICAL, id);
        return decision(runner, SITE_ID, id, decisionBody(n, request.epoch), publicUrl);
      };
      const started = performance.now();
      const until = started + request.seconds * 1000;
      let ops = 0;
      // A fixed number of operations (the statement check), or as many as fit in `seconds`.
      const more = () => (request.ops !== undefined ? seq < request.ops : performance.now() < until);
      await Promise.all(
        Array.from({ length: request.callers }, async () => {
          while (more()) {
            await one(++seq);
            ops++;
          }
        }),
      );
      const result: WorkerResult = { ops, elapsed: (performance.now() - started) / 1000, statements: Object.fromEntries(statements) };
      process.send!(result);
    })().catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
  ready.then(
    () => process.send!({ ready: true }),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

export interface Worker {
  ask(request: WorkerRequest): Promise<WorkerResult>;
  stop(): void;
}

/** Starts this file as a process of its own on `target` (a SQLite path, or a PostgreSQL URL with ?schema=). */
export async function startWorker(target: string): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/write-baseline-worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, WB_TARGET: target },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<unknown>((done, fail) => {
      const onExit = (code: number | null) => fail(new Error(`baseline worker exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        done(message);
      });
    });
  await next(); // { ready: true }: the schema is migrated
  return {
    ask(request) {
      const answer = next();
      child.send(request);
      return answer as Promise<WorkerResult>;
    },
    stop: () => void child.kill('SIGTERM'),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main();
