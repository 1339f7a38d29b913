/**
 * `query_timeout` in DATABASE_URL (docs/operations.md#when-postgresql-goes-away): a connection that goes silent while
 * open (a network dropping packets, a server frozen) is neither refused nor ended, so nothing tells pg about it. A
 * query on it would wait for the kernel's TCP retransmission timeout, many minutes, holding the request, the pool's
 * connection and, on the server, the locks of its transaction. Two bounds, of the same length:
 *
 * - on this side, a query unanswered that long closes its connection with ETIMEDOUT, which fails the query as any
 *   lost connection does (503 `unavailable`, connection-loss.ts) and makes the pool drop that client. pg's own
 *   `query_timeout` is not used: it fails the query but leaves the connection in the pool with the query still
 *   running on it, so the next request to take that connection waits behind it;
 * - on the server, `idle_in_transaction_session_timeout`: the session of a transaction whose client went silent
 *   waits for a next command that never comes, and nothing reaches it to say the client gave up; PostgreSQL ends it
 *   after that long, which rolls it back and frees its row locks for the other instances. The gateway never leaves a
 *   transaction idle on purpose: it calls processors and receivers outside any.
 */
import type pg from 'pg';
import { pgDriver } from '../kernel/drivers.ts';

/** The default of `query_timeout`, in seconds. */
export const DEFAULT_QUERY_TIMEOUT_SECONDS = 10;

/** pg's Client, each of whose queries closes the connection when unanswered after `timeoutMs` (0: never). */
export function clientWithQueryTimeout(timeoutMs: number): typeof pg.Client {
  return class TimedClient extends pgDriver().Client {
    // pg's overloads (a callback, a submittable, a promise) in one: only kysely's promise form is timed.
    override query(...args: unknown[]): any {
      const result: unknown = (super.query as (...all: unknown[]) => unknown).apply(this, args);
      if (timeoutMs === 0 || !(result instanceof Promise)) return result;
      const timer = setTimeout(() => this.connection.stream.destroy(silentFor(timeoutMs)), timeoutMs);
      return result.finally(() => clearTimeout(timer));
    }
  };
}

/** What the query fails with: Node's code for a link that stopped answering, so it counts as a lost connection. */
function silentFor(ms: number): Error {
  return Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: 'ETIMEDOUT' });
}

/** The server's side of the bound, as a startup option (`-c name=value`), or none when there is no bound. */
export function sessionTimeoutOption(timeoutMs: number): string[] {
  return timeoutMs === 0 ? [] : [`-c idle_in_transaction_session_timeout=${timeoutMs}`];
}
