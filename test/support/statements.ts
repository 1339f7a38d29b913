/**
 * Every statement this process sends to its database, with its parameters, read at the drivers' own entry points
 * (better-sqlite3's Statement run/get/all/iterate, pg's Client.query), below kysely and the gateway's own drivers, so
 * nothing the gateway runs is missed. For tests that assert what work a step causes (which endpoints a new message
 * wakes), not how fast it is. bench/write-trace-hook.ts counts the same way in a child process.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface Statement {
  sql: string;
  params: unknown[];
}

type Method = (this: { source: string }, ...args: unknown[]) => unknown;

/** Records from now until `stop()` (which puts the drivers back as they were). */
export function recordStatements(): { statements: Statement[]; stop(): void } {
  const statements: Statement[] = [];
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, Method>;
  probe.close();
  const restore: Array<() => void> = [];
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = statementProto[name]!;
    statementProto[name] = function (this: { source: string }, ...args: unknown[]) {
      statements.push({ sql: this.source, params: args.length === 1 && Array.isArray(args[0]) ? args[0] : args });
      return original.apply(this, args);
    };
    restore.push(() => (statementProto[name] = original));
  }
  const clientProto = pg.Client.prototype as unknown as { query: Method };
  const query = clientProto.query;
  clientProto.query = function (this: { source: string }, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] } | undefined, unknown[] | undefined];
    if (typeof config === 'string') statements.push({ sql: config, params: values ?? [] });
    else if (config?.text) statements.push({ sql: config.text, params: config.values ?? [] });
    return query.apply(this, args);
  };
  restore.push(() => (clientProto.query = query));
  return { statements, stop: () => restore.forEach((undo) => undo()) };
}
