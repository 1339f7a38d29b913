/**
 * What the driver wrappers share (traced-dialect.ts: spans; connection-loss.ts: outages as 503): a dialect whose
 * driver is wrapped and whose other parts are the inner dialect's, and a driver that passes every call on, so that a
 * wrapper states only what it changes.
 */
import type { DatabaseConnection, Dialect, Driver, Kysely, TransactionSettings } from 'kysely';

export function withDriver(inner: Dialect, wrap: (driver: Driver) => Driver): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => wrap(inner.createDriver()),
    createIntrospector: (db: Kysely<any>) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}

export class PassThroughDriver implements Driver {
  // Savepoints stay the inner driver's (none is used today; kept so that `trx.savepoint()` works if one is).
  readonly savepoint: Driver['savepoint'];
  readonly rollbackToSavepoint: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint: Driver['releaseSavepoint'];

  constructor(protected readonly inner: Driver) {
    this.savepoint = inner.savepoint?.bind(inner);
    this.rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner);
    this.releaseSavepoint = inner.releaseSavepoint?.bind(inner);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
