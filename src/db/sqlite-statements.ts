/**
 * The SQLite connection as kysely sees it, with each statement prepared once and kept.
 *
 * kysely's SQLite driver calls `prepare(sql)` for every query and drops the statement. Keeping them saves SQLite's
 * parse and plan on every request (DESIGN: prepared statements for every lookup path); the app's SQL comes from a
 * fixed set of query shapes, so the cache stays small. Past MAX_KEPT a statement is prepared and dropped as before.
 *
 * Kept statements, and the connections they belong to, also outlive `close()` for as long as the process runs:
 * on Node 24.19 and later, with a better-sqlite3 12 addon built against those headers, the garbage collector
 * destroying a statement or a connection can abort the process (nodejs/node#65446: the destructor asserts in
 * `RemoveEnvironmentCleanupHook` when no environment is current). better-sqlite3 13 no longer has that destructor
 * but needs Node 22; until Node 20 support ends, nothing here is left for the collector. A closed connection's
 * statements are finalized on the C side, so what stays is a few small JS objects per database ever opened.
 *
 * A statement still busy (an unfinished `iterate`, used only for streams) is never handed out twice: a fresh one is
 * prepared for that call.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export const MAX_KEPT = 2_000;

/** Every connection and kept statement this process opened (see above: never left for the garbage collector). */
const outliving: unknown[] = [];

export interface KeptStatements extends SqliteDatabase {
  /** How many statements are kept (for tests). */
  readonly size: number;
  /** Whether `sql` may write (SQLite's `readonly` is false): a write with `returning` returns rows, yet writes. */
  writes(sql: string): boolean;
}

export function keepStatements(sqlite: SQLite.Database): KeptStatements {
  const kept = new Map<string, SQLite.Statement>();
  outliving.push(sqlite, kept);
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
    writes(sql: string): boolean {
      return !(this.prepare(sql) as unknown as SQLite.Statement).readonly;
    },
    close() {
      sqlite.close(); // finalizes every statement, kept or not
    },
  };
}
