/**
 * The write-path baselines' process (started by bench/write-baseline.ts, one per database, kept for its rounds):
 * the schema made by the project's own migrations (createDatabase(...).migrate(), on a fresh SQLite file or a fresh
 * PostgreSQL schema), then raw better-sqlite3 or raw pg running bench/write-baseline-flows.ts from as many callers
 * as the gateway's load has connections. Asked over IPC: { flow, seconds, callers, run } → { ops, elapsed, statements }.
 *
 * How the callers are modelled, as the gateway runs them:
 *  - SQLite: one connection, the pragmas of src/db/database.ts (WAL, synchronous FULL unless told normal,
 *    foreign_keys, busy_timeout), each statement prepared once and kept. better-sqlite3 is synchronous, so the
 *    callers are async loops in this one process taking turns at a mutex, statement by statement outside a
 *    transaction and for a whole transaction inside one: what kysely's SQLite driver does in the gateway (its
 *    ConnectionMutex). Nothing overlaps the database work, here or there; what the baseline leaves out is HTTP,
 *    parsing, auth, kysely's query building and the gateway's other per-request work.
 *  - PostgreSQL: a pg.Pool of 10 (as the gateway's), statements outside a transaction on any pooled connection,
 *    each transaction on one, begin … commit; named (server-side prepared) statements, the best raw pg can do.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createDatabase } from '../src/db/database.ts';
import { decision, decisionBody, orderCreateAndPay, payment, PAYMENT_CANONICAL, SITE_ID, vaultCrypto, type Row, type Runner } from './write-baseline-flows.ts';
import { ROOT } from './lib.ts';

export type Flow = 'orders' | 'payments' | 'decisions';
export interface WorkerRequest { flow: Flow; seconds: number; callers: number; run: string; ops?: number; epoch?: number }
export interface WorkerResult { ops: number; elapsed: number; statements: Record<string, number> }

const HOLD_SECONDS = 600;
const INT8_OID = 20;

/** Every statement run, by its text (whitespace collapsed), for the comparison with the gateway's. */
const statements = new Map<string, number>();
const count = (sql: string) => {
  const key = sql.replace(/\s+/gu, ' ').trim();
  statements.set(key, (statements.get(key) ?? 0) + 1);
};

/** The promise chain kysely's SQLite driver keeps: one holder of the connection at a time. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async lock(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((done) => (release = done));
    await previous;
    return release;
  }
}

function sqliteRunner(path: string, synchronous: string): Runner {
  const db = new SQLite(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  const kept = new Map<string, SQLite.Statement>();
  const run = (sql: string, params: unknown[]) => {
    count(sql);
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = db.prepare(sql)));
    if (statement.reader) return { rows: statement.all(...params) as Row[], changes: 0 };
    return { rows: [], changes: statement.run(...params).changes };
  };
  const mutex = new Mutex();
  const inside: Runner = {
    multipleConnections: false,
    q: async (sql, params) => run(sql, params),
    tx: () => Promise.reject(new Error('nested transaction')),
  };
  return {
    multipleConnections: false,
    async q(sql, params) {
      const release = await mutex.lock();
      try {
        return run(sql, params);
      } finally {
        release();
      }
    },
    async tx(body) {
      const release = await mutex.lock();
      try {
        run('begin', []);
        try {
          const result = await body(inside);
          run('commit', []);
          return result;
        } catch (error) {
          run('rollback', []);
          throw error;
        }
      } finally {
        release();
      }
    },
  };
}

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

async function open(): Promise<Runner> {
  const target = process.env.WB_TARGET!;
  const synchronous = process.env.WB_SYNCHRONOUS ?? 'full';
  const postgres = target.startsWith('postgres');
  // The schema as the gateway makes it: the project's migrations, through its own createDatabase.
  const app = await createDatabase(postgres ? { kind: 'postgres', url: target } : { kind: 'sqlite', path: target, synchronous: synchronous as 'full' });
  await app.migrate();
  await app.destroy();
  return postgres ? pgRunner(target) : sqliteRunner(target, synchronous);
}

export function main(): void {
  const crypto = vaultCrypto(randomBytes(32));
  const publicUrl = 'http://127.0.0.1';
  const ready = open();
  process.on('message', (request: WorkerRequest) => {
    void (async () => {
      const runner = await ready;
      statements.clear();
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
