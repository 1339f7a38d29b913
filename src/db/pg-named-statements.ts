/**
 * Named statements on PostgreSQL (docs/running.md#named-statements-on-postgresql): each statement text the gateway
 * runs with parameters gets a name, so PostgreSQL parses and plans it once per connection and then only binds and
 * executes it. kysely hands pg a text and its parameters, which pg sends as an unnamed statement: parsed and planned
 * again on every run. On the 2-core machine, where the database shares the cores with the gateway, that was most
 * of the gap to a raw `pg` doing the same work with named statements.
 *
 * - The names are this process's, the same on each of its connections; pg prepares a name on a connection the first
 *   time it runs there. At most MAX_NAMED texts get one (a text is one per query shape; a list of variable length
 *   makes a shape per length): later ones run unnamed, as before.
 * - A statement without parameters (BEGIN, COMMIT, SET LOCAL) runs unnamed: nothing to gain.
 * - A prepared statement's result columns are fixed when it is prepared. If another instance's migration then adds
 *   a column to a table a `select *` reads (a rolling upgrade), PostgreSQL refuses to run it: SQLSTATE 0A000,
 *   "cached plan must not change result type", on every connection that prepared it, and pg never prepares a name
 *   twice. So on that refusal the text gets a new name, which every connection prepares afresh; the request that met
 *   it is answered 503 `unavailable`, retryable (connection-loss.ts), and its retry runs.
 */
import type pg from 'pg';

/** How many statement texts get a name, per process. */
export const MAX_NAMED = 1000;

/**
 * Whether PostgreSQL refused a named statement whose result columns changed since it was prepared (above). SQLSTATE
 * 0A000 is any "feature not supported"; the refusal is the one raised in plancache.c's RevalidateCachedQuery, which
 * the error names in `routine` whatever the server's language (the message is translated by `lc_messages`).
 */
export function isStalePlan(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, routine } = error as { code?: unknown; routine?: unknown };
  return code === '0A000' && (routine === 'RevalidateCachedQuery' || error.message === 'cached plan must not change result type');
}

/** Statement texts and their names; a text renamed after a stale plan keeps its place in the count. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private made = 0;

  constructor(private readonly max = MAX_NAMED) {}

  /** The name `text` runs under, or undefined: unnamed (the cap is reached). */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) this.names.set(text, (name = `sleeve_${++this.made}`));
    return name;
  }

  /** Gives `text` a new name: the next run of it on any connection prepares it again. */
  rename(text: string): void {
    if (this.names.has(text)) this.names.set(text, `sleeve_${++this.made}`);
  }
}

/** `Base` (a pg Client class) whose parameterised queries in kysely's form run as named statements (above). */
export function clientWithNamedStatements(Base: typeof pg.Client, names = new StatementNames()): typeof pg.Client {
  return class NamedStatementClient extends Base {
    override query(...args: unknown[]): any {
      const [text, values] = args;
      // pg's overloads in one, as TimedClient calls them: apply, not a function bound anew for every query.
      const query = super.query as (...all: unknown[]) => unknown;
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || args.length !== 2) return query.apply(this, args);
      const name = names.nameOf(text);
      if (name === undefined) return query.call(this, text, values);
      return (query.call(this, { name, text, values }) as Promise<unknown>).catch((error: unknown) => {
        if (isStalePlan(error)) names.rename(text);
        throw error;
      });
    }
  };
}
