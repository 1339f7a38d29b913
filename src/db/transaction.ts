/**
 * The one way the services open a transaction: `transaction(db, work)` is kysely's `db.transaction().execute(work)`,
 * with the same steps, answers and errors. On SQLite with tracing off it goes past kysely's TransactionBuilder,
 * connection provider and runtime driver, straight to the group-commit driver (group-commit.ts): the connection in its
 * turn, BEGIN or a member's SAVEPOINT, `work` on a kysely Transaction bound to that connection, then the member's
 * release and the wait for its batch's COMMIT, or its rollback. Each promise is a hook call on Node 20 while the
 * request scope is on (src/kernel/logger.ts): for a transaction of one statement of compiled-once.ts, this way makes
 * 12, kysely's 21 (37 counting kysely's executor, which that statement takes in kysely's transactions; see
 * test/db/transaction.test.ts and docs/running.md#group-commit). With tracing on it is kysely's way, whose driver opens
 * the transaction's span (traced-dialect.ts).
 *
 * `mayRepeat`: the transaction records only work that may happen again (asynchronous-commit.ts), marked on its
 * connection before it begins (batch-durability.ts).
 */
import { PostgresAdapter, SingleConnectionProvider, Transaction, type CompiledQuery, type DatabaseConnection, type Kysely, type QueryResult } from 'kysely';
import { tracingOn } from '../operations/tracing.ts';
import { directSqliteOf, type DirectSqlite } from './group-commit-dialect.ts';
import type { Database } from './tables.ts';

export type Work<T, DB = Database> = (trx: Transaction<DB>) => Promise<T>;

export function transaction<T, DB = Database>(db: Kysely<DB>, work: Work<T, DB>, { mayRepeat = false } = {}): Promise<T> {
  // As kysely refuses it: a transaction is not nested in another by opening one on it.
  if (db.isTransaction) return Promise.reject(new Error('calling the transaction method for a Transaction is not supported'));
  const direct = directSqliteOf(db.getExecutor().adapter);
  if (direct && !tracingOn()) return directTransaction(db, direct, work, mayRepeat);
  if (!direct || !mayRepeat) return db.transaction().execute(work);
  // The connection is held from here to the transaction's end, so the lease marked is the one its BEGIN runs on.
  return db.connection().execute((connection) => {
    direct.driver.mayRepeatHolder();
    return connection.transaction().execute(work);
  });
}

/**
 * Reads that must agree with each other (a delivery and its attempts, a page and its count) from one snapshot. Read
 * one after the other outside a transaction, a dispatcher's commit between them showed a delivery PENDING with no
 * attempt counted and its successful attempt listed. PostgreSQL: a read-only REPEATABLE READ transaction (READ
 * COMMITTED, its default, takes a snapshot per statement; a read-only one is never refused for a conflict). SQLite: a
 * transaction, which no writer enters before it ends.
 */
export function readTogether<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
  return transaction(db, work);
}

/** kysely's TransactionBuilder.execute, step for step, on the group-commit driver itself. */
async function directTransaction<T, DB>(db: Kysely<DB>, { driver, dialect }: DirectSqlite, work: Work<T, DB>, mayRepeat: boolean): Promise<T> {
  const connection = await driver.acquireConnection();
  const guarded = new UntilEnded(connection);
  let begun = false;
  try {
    if (mayRepeat) driver.mayRepeatHolder();
    await driver.beginTransaction(connection);
    begun = true;
    const result = await work(bound(db, dialect, driver, guarded));
    await driver.commitTransaction(connection);
    guarded.ended = 'committed';
    return result;
  } catch (error) {
    if (begun) {
      await driver.rollbackTransaction(connection);
      guarded.ended = 'rolled back';
    }
    throw error;
  } finally {
    void driver.releaseConnection(connection);
  }
}

/** A kysely Transaction whose every query runs on `connection` (as TransactionBuilder makes its own). */
function bound<DB>(db: Kysely<DB>, dialect: DirectSqlite['dialect'], driver: DirectSqlite['driver'], connection: UntilEnded): Transaction<DB> {
  const executor = db.getExecutor().withConnectionProvider(new SingleConnectionProvider(connection));
  const trx = new Transaction<DB>({ config: { dialect }, dialect, driver, executor });
  connections.set(trx, connection);
  return trx;
}

const connections = new WeakMap<object, UntilEnded>();

/**
 * The connection of a transaction opened here, for a statement sent past kysely's executor (compiled-once.ts): it
 * runs on that transaction's own connection, and is refused once the transaction has ended. Undefined for any other.
 */
export function connectionOf(trx: object): DatabaseConnection | undefined {
  return connections.get(trx);
}

/**
 * The transaction's connection until it ends; then a query on the Transaction is refused with kysely's own words,
 * as kysely's transaction refuses it, rather than run on the connection's next holder.
 */
class UntilEnded implements DatabaseConnection {
  ended: 'committed' | 'rolled back' | null = null;
  constructor(private readonly connection: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.ended) return Promise.reject(new Error(`Transaction is already ${this.ended}`));
    return this.connection.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.ended) throw new Error(`Transaction is already ${this.ended}`);
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}
