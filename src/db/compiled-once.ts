/**
 * Queries of the hot write paths, built and compiled by kysely once per dialect and shape, then sent again with new
 * values. Building a query's tree and compiling it cost the gateway about a tenth of its time on the orders path
 * (bench/write-baseline.ts, a CPU profile): as much as a small statement takes SQLite to run.
 *
 * `build` gets a placeholder for each value the first time (a string no caller sends), and each placeholder is found
 * again among the compiled parameters; later calls put their values in those places. So `build` must give the same
 * SQL whatever the values: no list of values, no choice made on a value (a constant written in `build` is kept as
 * it is). The shape is the set of keys of `values`, so one query serves rows of several shapes.
 * A list of rows (a multi-row insert) has compiledPerCount instead: one compilation per number of rows.
 *
 * On SQLite the compiled statement goes straight to the group-commit driver (runDirect) when it can, past kysely's
 * executor: no plugin is installed, so the result is the same, with a promise or two instead of about fifteen.
 */
import { createQueryId, type Compilable, type CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './database.ts';
import { directDriverOf } from './group-commit-dialect.ts';
import { connectionOf } from './transaction.ts';

interface Known {
  sql: string;
  query: CompiledQuery['query'];
  /** For each parameter: the key of `values` it comes from, or the constant `build` wrote. */
  slots: Array<string | { constant: unknown }>;
}

const MARK = '\u0000compiled-once:';

/** A map per kysely adapter (one per database opened): tests open SQLite and PostgreSQL in one process. */
function perAdapter<K, V>(): (db: Db) => Map<K, V> {
  const byAdapter = new WeakMap<object, Map<K, V>>();
  return (db) => {
    const adapter = db.getExecutor().adapter;
    let map = byAdapter.get(adapter);
    if (!map) byAdapter.set(adapter, (map = new Map()));
    return map;
  };
}

export function compiledOnce<V extends Record<string, unknown>, R>(build: (db: Db, values: V) => Compilable<R>): (db: Db, values: V) => Promise<QueryResult<R>> {
  const shapesOf = perAdapter<string, Known>();
  return (db, values) => {
    const shapes = shapesOf(db);
    const keys = Object.keys(values);
    const shape = keys.join(',');
    let known = shapes.get(shape);
    if (!known) {
      const marks = Object.fromEntries(keys.map((key) => [key, `${MARK}${key}`])) as V;
      const compiled = build(db, marks).compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : { constant: p }));
      known = { sql: compiled.sql, query: compiled.query, slots };
      shapes.set(shape, known);
    }
    const parameters = known.slots.map((slot) => (typeof slot === 'string' ? values[slot] : slot.constant));
    return executeCompiled<R>(db, { sql: known.sql, query: known.query, parameters, queryId: createQueryId() });
  };
}

/**
 * A query of a list of rows (a multi-row insert), built and compiled once per dialect and number of rows: its
 * parameters are then each row's `columns`, in that order, row after row. The first compile of each count checks
 * that this is so (every column of every row is a parameter, once, in that order), and fails otherwise, before
 * anything runs.
 */
export function compiledPerCount<Row extends Record<string, unknown>, R>(
  columns: ReadonlyArray<keyof Row & string>,
  build: (db: Db, rows: Row[]) => Compilable<R>,
): (db: Db, rows: Row[]) => Promise<QueryResult<R>> {
  const countsOf = perAdapter<number, Omit<Known, 'slots'>>();
  return (db, rows) => {
    const counts = countsOf(db);
    let known = counts.get(rows.length);
    if (!known) {
      // Built on rows of placeholders, one of its own for each row and column, so the check below is exact.
      const marks = rows.map((_, i) => Object.fromEntries(columns.map((column) => [column, `${MARK}${i}:${column}`])) as Row);
      const compiled = build(db, marks).compile();
      const expected = marks.flatMap((mark) => columns.map((column) => mark[column]));
      if (compiled.parameters.length !== expected.length || compiled.parameters.some((p, i) => p !== expected[i])) {
        return Promise.reject(new Error(`compiledPerCount: the query's parameters are not each row's ${columns.join(', ')}, in order`));
      }
      counts.set(rows.length, (known = { sql: compiled.sql, query: compiled.query }));
    }
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of columns) parameters.push(row[column]);
    return executeCompiled<R>(db, { sql: known.sql, query: known.query, parameters, queryId: createQueryId() });
  };
}

/**
 * A compiled query run on `db` (a transaction, or not). In a transaction of transaction.ts's, on that transaction's own
 * connection (refused once it has ended); in one of kysely's (tracing on, or PostgreSQL), through kysely's executor,
 * which refuses it as well once the transaction has ended; outside any transaction on SQLite, straight to the
 * group-commit driver.
 */
export function executeCompiled<R>(db: Db, compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
  try {
    if (db.isTransaction) return connectionOf(db)?.executeQuery<R>(compiled) ?? db.executeQuery<R>(compiled);
    return directDriverOf(db.getExecutor().adapter)?.runDirect<R>(compiled) ?? db.executeQuery<R>(compiled);
  } catch (error) {
    // kysely's executor refuses an ended transaction by throwing at once: a promise either way, as a query's.
    return Promise.reject(error);
  }
}
