/**
 * kysely's SQLite dialect with the group-commit driver (group-commit.ts), every statement kept prepared
 * (sqlite-statements.ts) and planned once (sqlite-query-compiler.ts), and the way from a query's `db` to that driver
 * for the statements sent to it directly (compiled-once.ts).
 */
import type SQLite from 'better-sqlite3';
import { SqliteDialect, type Dialect } from 'kysely';
import { GroupCommitDriver } from './group-commit.ts';
import { SqliteStatementCompiler } from './sqlite-query-compiler.ts';
import { keepStatements } from './sqlite-statements.ts';

export function groupCommitDialect(sqlite: SQLite.Database): Dialect {
  const statements = keepStatements(sqlite);
  const base = new SqliteDialect({ database: statements });
  let driver: GroupCommitDriver | undefined;
  const dialect: Dialect = {
    // kysely makes the driver first, then the adapter: the adapter is what a query's `db` leads to (directDriverOf).
    createAdapter: () => {
      const adapter = base.createAdapter();
      // SQLite runs schema changes in a transaction; kysely's adapter says it does not, so its migrator committed each
      // statement of a migration on its own and recorded the migration after the last. Cut in between (a kill -9, a
      // full disk), a migration was half applied and never recorded, and every later start failed on its first
      // statement ("table counters already exists"): the database could not be started on again. Now the pending
      // migrations and their records commit together, or not at all (test/db/interrupted-migration.test.ts).
      Object.defineProperty(adapter, 'supportsTransactionalDdl', { value: true });
      if (driver) directDrivers.set(adapter, { driver, dialect });
      return adapter;
    },
    createDriver: () => (driver = new GroupCommitDriver(statements, sqlite, base.createDriver())),
    createIntrospector: (db) => base.createIntrospector(db),
    createQueryCompiler: () => new SqliteStatementCompiler(),
  };
  return dialect;
}

/** The group-commit driver behind an adapter, and the dialect that made it (a kysely Transaction names both). */
export interface DirectSqlite {
  driver: GroupCommitDriver;
  dialect: Dialect;
}

const directDrivers = new WeakMap<object, DirectSqlite>();

/** What is behind a kysely adapter (`db.getExecutor().adapter`), for transaction.ts; none on PostgreSQL. */
export function directSqliteOf(adapter: object): DirectSqlite | undefined {
  return directDrivers.get(adapter);
}

/** The group-commit driver behind a kysely adapter, for runDirect; none on PostgreSQL. */
export function directDriverOf(adapter: object): GroupCommitDriver | undefined {
  return directDrivers.get(adapter)?.driver;
}
