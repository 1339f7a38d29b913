/**
 * SQLite's driver with group commit (docs/running.md#group-commit): the transactions that finish within one turn of
 * the event loop share one COMMIT, one sync of the WAL; each is answered only after it, so success means on disk.
 *
 * The first transaction of a batch runs BEGIN; each transaction (one after another on the one connection) is a
 * SAVEPOINT inside it, released when it commits and rolled back alone when it fails, so one member's failure costs
 * no other member its work. A member's commit hands the connection on at once and waits for the batch's COMMIT,
 * which runs at `setImmediate` after the first member committed (every request read in the same poll phase joins;
 * no wait when idle), at MAX_MEMBERS members (bounding what one failed COMMIT takes back), or when the driver is
 * destroyed. A member still running (its body awaits) keeps the COMMIT waiting until it ends. A batch begun by a
 * transaction that may repeat skips the sync (batch-durability.ts).
 *
 * A statement outside a transaction while a batch is open (the next request's auth lookup) runs inside the batch,
 * sees its work, and is answered after its COMMIT (or gets its error): no answer is built on work that could still be
 * lost. With no batch open it runs at once, in autocommit. A BEGIN or a statement of its own that meets another
 * process's write lock waits for it on timers, keeping the connection, not inside SQLite's busy_timeout, which would
 * stop the whole process meanwhile (lock-wait.ts).
 */
import type SQLite from 'better-sqlite3';
import { CompiledQuery, SelectQueryNode, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { BatchDurability } from './batch-durability.ts';
import { DatabaseBusy, DatabaseCannotWrite } from './connection-loss.ts';
import { LockWaits } from './lock-wait.ts';
import type { KeptStatements } from './sqlite-statements.ts';

/** At most this many transactions in one COMMIT. */
export const MAX_MEMBERS = 64;

// IMMEDIATE: the batch takes the write lock at once (waiting for another process's, lock-wait.ts), so a batch whose
// first members only read can't find, at its first write, that another process wrote since (SQLITE_BUSY_SNAPSHOT).
const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint member');
const RELEASE = CompiledQuery.raw('release member');
const ROLLBACK_TO = CompiledQuery.raw('rollback to member');

type Waiting = { resolve(): void; reject(error: unknown): void };

/** One holder's use of the connection: kysely gets a fresh one per acquire, so a late release is told apart. */
class Lease implements DatabaseConnection {
  inTransaction = false;
  /** Waiting on timers for another process's lock (lock-wait.ts): it keeps the connection until that ends. */
  waitingForLock = false;
  /** When it asked for the connection: one that queued during a wait for a lock shares it (lock-wait.ts). */
  readonly queuedAt = performance.now();
  /** Its transaction records only work that may happen again (batch-durability.ts): set before it begins. */
  mayRepeat = false;
  constructor(private readonly driver: GroupCommitDriver) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.run<R>(this, query);
  }
  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream<R>(this, query);
  }
}

export class GroupCommitDriver implements Driver {
  #holder: Lease | null = null;
  readonly #queue: Array<() => void> = [];
  /** A BEGIN ran and its COMMIT has not. */
  #open = false;
  /** The members that committed into the open batch, waiting for its COMMIT. */
  #members: Waiting[] = [];
  #scheduled = false;
  /** The COMMIT came due while a member was running: it runs when that member ends. */
  #due = false;
  #closed = false;
  readonly #lockWaits = new LockWaits();
  readonly #durability: BatchDurability;
  // kysely's `trx.savepoint()`: its SQLite driver's (SQLite nests them inside the member's own).
  readonly savepoint: Driver['savepoint'];
  readonly rollbackToSavepoint: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint: Driver['releaseSavepoint'];

  constructor(
    private readonly statements: KeptStatements,
    private readonly sqlite: SQLite.Database,
    savepoints: Driver,
  ) {
    this.savepoint = savepoints.savepoint?.bind(savepoints);
    this.rollbackToSavepoint = savepoints.rollbackToSavepoint?.bind(savepoints);
    this.releaseSavepoint = savepoints.releaseSavepoint?.bind(savepoints);
    this.#durability = new BatchDurability(statements);
  }

  /** The transaction about to begin on the connection held now may repeat (asynchronous-commit.ts). */
  mayRepeatHolder(): void {
    if (this.#holder && !this.#holder.inTransaction) this.#holder.mayRepeat = true;
  }

  async init(): Promise<void> {}

  // No `async` and no `await` where the connection is free: with the request scope on, every promise costs a hook call.
  acquireConnection(): Promise<DatabaseConnection> {
    if (this.#closed) return Promise.reject(new Error('driver has already been destroyed')); // kysely's own words
    const lease = new Lease(this);
    const waiting = this.#hold(lease);
    return waiting ? waiting.then(() => lease) : Promise.resolve(lease);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#handOn(connection as Lease);
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const waiting = this.#hold(lease);
    if (waiting) return waiting.then(() => this.beginTransaction(lease));
    try {
      // A batch that skips the sync takes no transaction that must not (batch-durability.ts): it is committed first.
      if (this.#open && this.#durability.relaxed && !lease.mayRepeat) this.#commit();
      if (!this.#open) this.#begin(lease.mayRepeat);
      this.#execute(SAVEPOINT);
    } catch (error) {
      // Another process holds the write lock: wait for it on timers, then begin as if it had been free.
      if (error instanceof DatabaseBusy && !this.#open) return this.#whenUnlocked(lease, () => this.#begin(lease.mayRepeat), error).then(() => this.beginTransaction(lease));
      return Promise.reject(error);
    }
    lease.inTransaction = true;
    return Promise.resolve();
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    try {
      this.#execute(RELEASE);
    } catch (error) {
      return Promise.reject(error); // the member stays open: kysely then calls rollbackTransaction
    }
    lease.inTransaction = false;
    return this.#join(lease, undefined);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.inTransaction) return; // its COMMIT failed: the batch is already rolled back
    lease.inTransaction = false;
    if (this.sqlite.inTransaction) {
      this.#execute(ROLLBACK_TO);
      this.#execute(RELEASE);
      if (this.#due) this.#commit();
    } else {
      // SQLite rolled the whole transaction back itself (a full disk, an I/O error): the members waiting lost theirs.
      this.#settle(new Error('the transaction was rolled back by the database'));
    }
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    if (this.#holder?.inTransaction === true) this.#settle(new Error('the database was closed before the commit'));
    else this.#commit();
    this.statements.close(); // an open transaction is rolled back by the close
  }

  run<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    const waiting = this.#hold(lease);
    if (waiting) return waiting.then(() => this.run<R>(lease, query));
    let result: QueryResult<unknown>;
    try {
      // A write of its own does not join a batch that skips the sync: that batch is committed, and the write runs alone.
      if (this.#open && this.#durability.relaxed && !lease.inTransaction && this.statements.writes(query.sql)) this.#commit();
      result = this.#execute(query);
    } catch (error) {
      // A statement of its own (no batch open) that met another process's lock: it waits on timers, keeping the connection.
      if (error instanceof DatabaseBusy && !lease.inTransaction && !this.#open) return this.#whenUnlocked(lease, () => this.#execute(query) as QueryResult<R>, error);
      // SQLite undid that statement alone, unless the error ended the whole transaction (then the batch is lost).
      if (this.#open && !lease.inTransaction && !this.sqlite.inTransaction) this.#settle(error);
      return Promise.reject(error);
    }
    if (lease.inTransaction || !this.#open) return Promise.resolve(result as QueryResult<R>);
    return this.#join(lease, result as QueryResult<R>);
  }

  /**
   * A statement of its own, outside any transaction, run past kysely's executor (about fifteen promises a statement
   * there, each a hook call while the request scope's AsyncLocalStorage is on), in its turn, as run() does. A
   * transaction's statements run on its own connection (compiled-once.ts).
   */
  runDirect<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const lease = new Lease(this);
    const waiting = this.#hold(lease);
    return waiting ? waiting.then(() => this.#runAlone<R>(lease, query)) : this.#runAlone<R>(lease, query);
  }

  #runAlone<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    const result = this.run<R>(lease, query);
    if (lease.waitingForLock) return result.finally(() => this.#handOn(lease));
    this.#handOn(lease); // unless run() already handed it on, joining the batch
    return result;
  }

  async *stream<R>(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    await this.#hold(lease);
    if (!lease.inTransaction && this.#open) this.#commit(); // rows handed over one by one can't wait for a COMMIT
    for (const row of this.statements.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }

  #begin(mayRepeat: boolean): void {
    if (mayRepeat) this.#durability.beginRelaxed();
    try {
      this.#execute(BEGIN);
    } catch (error) {
      if (this.#durability.relaxed) this.#durability.endRelaxed();
      throw error;
    }
    this.#open = true;
    this.#lockWaits.ended();
  }

  #whenUnlocked<T>(lease: Lease, attempt: () => T, refused: DatabaseBusy): Promise<T> {
    lease.waitingForLock = true;
    return this.#lockWaits.retry(attempt, refused, () => this.#closed, lease.queuedAt).finally(() => (lease.waitingForLock = false));
  }

  #execute(query: CompiledQuery): QueryResult<unknown> {
    try {
      const statement = this.statements.prepare(query.sql);
      if (statement.reader) return { rows: statement.all(query.parameters as unknown[]) };
      const { changes, lastInsertRowid } = statement.run(query.parameters as unknown[]);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      // Another process holds the file's lock: an outage (503) once waited out, not a bug (500). Here, where every
      // statement passes, rather than in a wrapper around the driver: no promise more per statement on the hot path.
      if (DatabaseBusy.is(error)) throw new DatabaseBusy(error);
      throw DatabaseCannotWrite.is(error) ? new DatabaseCannotWrite(error) : error;
    }
  }

  /**
   * `lease` becomes the holder, now or in its turn. A lease already holds the connection from its acquire to its
   * release, unless it handed it on early at a member's end (a kysely `connection()` used again after a transaction).
   */
  #hold(lease: Lease): Promise<void> | void {
    if (this.#holder === lease) return;
    if (this.#holder === null) {
      this.#holder = lease;
      return;
    }
    return new Promise((resolve) => this.#queue.push(() => resolve(void (this.#holder = lease))));
  }

  /** `lease`'s work is in the open batch: it waits for the COMMIT (due or scheduled); the connection goes on at once. */
  #join<T>(lease: Lease, value: T): Promise<T> {
    const committed = new Promise<T>((resolve, reject) => this.#members.push({ resolve: () => resolve(value), reject }));
    if (this.#due || this.#members.length >= MAX_MEMBERS) this.#commit();
    else this.#schedule();
    this.#handOn(lease);
    return committed;
  }

  #handOn(lease: Lease): void {
    if (this.#holder !== lease) return;
    const next = this.#queue.shift();
    if (next) next();
    else this.#holder = null;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#holder?.inTransaction) this.#due = true;
      else this.#commit();
    });
  }

  #commit(): void {
    this.#due = false;
    if (!this.#open) return;
    try {
      this.#execute(COMMIT);
    } catch (error) {
      try {
        if (this.sqlite.inTransaction) this.#execute(ROLLBACK);
      } finally {
        this.#settle(error);
      }
      return;
    }
    this.#settle();
  }

  /** Closes the batch and answers its members: committed, or `error` (nothing of theirs is stored). */
  #settle(error?: unknown): void {
    this.#open = false;
    this.#due = false;
    if (this.#durability.relaxed && !this.sqlite.inTransaction) this.#durability.endRelaxed(); // not yet on a close mid-member
    const members = this.#members;
    this.#members = [];
    for (const member of members) {
      if (error === undefined) member.resolve();
      else member.reject(error);
    }
  }
}
