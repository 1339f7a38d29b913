/**
 * Every statement this process sends to its database, with its parameters, seen at the drivers' own entry points
 * (better-sqlite3's Statement run/get/all/iterate and Database exec, pg's Client.query), below kysely and the
 * gateway's own drivers, so nothing the gateway runs is missed. For tests that assert what work a step causes
 * (which endpoints a new message wakes), and for bench/write-trace-hook.ts, which counts a gateway's statements
 * for the write baselines' check; never for how fast anything is.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface Statement {
  sql: string;
  params: unknown[];
}

type Method = (this: { source: string }, ...args: unknown[]) => unknown;

/** Calls `seen` with every statement from now on; the function returned puts the drivers back as they were. */
export function watchStatements(seen: (statement: Statement) => void): () => void {
  const undo: Array<() => void> = [];
  const wrap = (target: Record<string, Method>, name: string, read: (self: { source: string }, args: unknown[]) => Statement | undefined) => {
    const original = target[name]!;
    target[name] = function (this: { source: string }, ...args: unknown[]) {
      const statement = read(this, args);
      if (statement) seen(statement);
      return original.apply(this, args);
    };
    undo.push(() => (target[name] = original));
  };
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, Method>;
  probe.close();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    wrap(statementProto, name, (self, args) => ({ sql: self.source, params: args.length === 1 && Array.isArray(args[0]) ? args[0] : args }));
  }
  wrap(Database.prototype as unknown as Record<string, Method>, 'exec', (_, [sql]) => (typeof sql === 'string' ? { sql, params: [] } : undefined));
  wrap(pg.Client.prototype as unknown as Record<string, Method>, 'query', (_, [config, values]) => {
    if (typeof config === 'string') return { sql: config, params: (values as unknown[] | undefined) ?? [] };
    const text = (config as { text?: string; values?: unknown[] } | undefined)?.text;
    return text ? { sql: text, params: (config as { values?: unknown[] }).values ?? [] } : undefined;
  });
  return () => undo.reverse().forEach((put) => put());
}

/** Records from now until `stop()`. */
export function recordStatements(): { statements: Statement[]; stop(): void } {
  const statements: Statement[] = [];
  return { statements, stop: watchStatements((statement) => statements.push(statement)) };
}
