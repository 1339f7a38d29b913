/**
 * The SQLite baseline's way to run statements (bench/write-baseline-worker.ts): raw better-sqlite3 on one
 * connection, with the gateway's pragmas (src/db/database.ts) and each statement prepared once and kept, committing
 * as the gateway commits (src/db/group-commit.ts), so that both do the same durable work: the same WAL syncs per
 * request, not only the same rows.
 *
 * The callers are async loops in this one process taking turns at a mutex, for a statement outside a transaction
 * and for a whole transaction inside one, as the gateway's requests take turns at its one connection. Each
 * transaction is a SAVEPOINT inside a batch opened by BEGIN; it hands the connection on when it ends and its caller
 * goes on after the batch's COMMIT, which runs at `setImmediate` or at MAX_MEMBERS. A statement outside a
 * transaction runs at once when no batch is open, and otherwise inside the batch, its caller going on after the
 * COMMIT. That is the gateway's policy written out without kysely; what the baseline leaves out is HTTP, parsing,
 * auth, kysely's query building and the gateway's other per-request work.
 *
 * With `maxMembers: 1` each transaction is committed at its end, before its caller goes on: the way the gateway
 * committed before group commit, which the bench also measures to show what the grouping is worth.
 */
import SQLite from 'better-sqlite3';
import { MAX_MEMBERS } from '../src/db/group-commit.ts';
import type { Row, Runner } from './write-baseline-flows.ts';

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

interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

/** How many transactions one COMMIT may carry: MAX_MEMBERS as the gateway, or 1 for a COMMIT per transaction. */
export interface CommitPolicy {
  maxMembers: number;
}

/** A raw better-sqlite3 connection with the gateway's pragmas (src/db/database.ts). */
export function openBaselineSqlite(path: string, synchronous: string): SQLite.Database {
  const db = new SQLite(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

export function sqliteRunner(path: string, synchronous: string, count: (sql: string) => void, policy: CommitPolicy): Runner {
  const db = openBaselineSqlite(path, synchronous);
  const kept = new Map<string, SQLite.Statement>();
  const run = (sql: string, params: unknown[]) => {
    count(sql);
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = db.prepare(sql)));
    if (statement.reader) return { rows: statement.all(...params) as Row[], changes: 0 };
    return { rows: [], changes: statement.run(...params).changes };
  };

  const mutex = new Mutex();
  let open = false;
  let inTransaction = false;
  let due = false;
  let scheduled = false;
  let members: Waiting[] = [];
  const commit = () => {
    due = false;
    if (!open) return;
    open = false;
    const waiting = members;
    members = [];
    try {
      run('commit', []);
    } catch (error) {
      if (db.inTransaction) run('rollback', []);
      for (const member of waiting) member.reject(error);
      return;
    }
    for (const member of waiting) member.resolve();
  };
  /** The caller's work is in the open batch: it goes on after the COMMIT. */
  const join = () => {
    const committed = new Promise<void>((resolve, reject) => members.push({ resolve, reject }));
    if (due || members.length >= policy.maxMembers) commit();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (inTransaction) due = true;
        else commit();
      });
    }
    return committed;
  };

  /** The caller's work is in the open batch: the connection goes to the next caller, and this one on after the COMMIT. */
  const afterCommit = async <T>(release: () => void, result: T): Promise<T> => {
    const committed = join();
    release();
    await committed;
    return result;
  };

  const inside: Runner = {
    multipleConnections: false,
    q: async (sql, params) => run(sql, params),
    tx: () => Promise.reject(new Error('nested transaction')),
  };
  return {
    multipleConnections: false,
    async q(sql, params) {
      const release = await mutex.lock();
      let result;
      try {
        result = run(sql, params);
      } catch (error) {
        release();
        throw error;
      }
      if (open) return afterCommit(release, result);
      release();
      return result;
    },
    async tx(body) {
      const release = await mutex.lock();
      let result;
      try {
        if (!open) {
          run('begin immediate', []);
          open = true;
        }
        run('savepoint member', []);
        inTransaction = true;
        try {
          result = await body(inside);
          run('release member', []);
        } catch (error) {
          run('rollback to member', []);
          run('release member', []);
          throw error;
        } finally {
          inTransaction = false;
        }
      } catch (error) {
        if (due) commit();
        release();
        throw error;
      }
      return afterCommit(release, result);
    },
  };
}
