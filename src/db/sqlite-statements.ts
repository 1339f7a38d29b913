/**
 * The SQLite connection as kysely sees it, with each statement prepared once and kept.
 *
 * kysely's SQLite driver calls `prepare(sql)` for every query and drops the statement. Keeping them:
 * - saves SQLite's parse and plan on every request (DESIGN: prepared statements for every lookup path);
 * - keeps statements from being garbage-collected, which aborts the process on Node 24.19 and later with a
 *   better-sqlite3 12 addon built against those headers (nodejs/node#65446: `Statement::~Statement` asserts in
 *   `RemoveEnvironmentCleanupHook` when a collection runs with no current environment). The app's SQL comes from a
 *   fixed set of query shapes, so the cache stays small; past MAX_KEPT a statement is prepared and dropped as before.
 *
 * A statement still busy (an unfinished `iterate`, used only for streams) is never handed out twice: a fresh one is
 * prepared for that call.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export const MAX_KEPT = 2_000;

export interface KeptStatements extends SqliteDatabase {
  /** How many statements are kept (for tests). */
  readonly size: number;
}

export function keepStatements(sqlite: SQLite.Database): KeptStatements {
  const kept = new Map<string, SQLite.Statement>();
  return {
    get size() {
      return kept.size;
    },
    prepare(sql: string): SqliteStatement {
      const known = kept.get(sql);
      if (known && !known.busy) return known;
      const statement = sqlite.prepare(sql);
      if (!known && kept.size < MAX_KEPT) kept.set(sql, statement);
      return statement;
    },
    close() {
      sqlite.close(); // finalizes every statement, kept or not
      kept.clear();
    },
  };
}
