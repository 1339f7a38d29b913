/**
 * PostgreSQL going away (a restart, a failover, `pg_terminate_backend`, a pooler's idle timeout, a dropped network),
 * or SQLite's file locked by another process past its busy timeout, is an outage, not a bug: a request that meets it
 * is answered 503 `unavailable`, retryable, in its door's shape, rather than 500
 * (docs/operations.md#when-postgresql-goes-away). The driver is wrapped so that every
 * failure of this kind, whichever query or transaction step meets it, becomes that DomainError; every other
 * driver error (a unique violation, a serialization failure) passes unchanged to the code that handles it, but text
 * PostgreSQL cannot hold, which is the client's 400 (UNSTORABLE_TEXT).
 */
import type { DatabaseConnection, Dialect, QueryResult, TransactionSettings } from 'kysely';
import { DomainError } from '../kernel/errors.ts';
import { PassThroughDriver, withDriver } from './driver-wrapper.ts';
import { isStalePlan } from './pg-named-statements.ts';

/** Node's codes for a connection refused, reset or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections (class 08 is checked apart). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/**
 * SQLSTATE object_not_in_prerequisite_state, which PostgreSQL gives a new connection to a database that does not
 * accept them now (`ALTER DATABASE … ALLOW_CONNECTIONS false`, maintenance). Only while connecting: a query may
 * meet the same code for reasons of its own (a sequence not yet used, a lock not available), which are no outage.
 */
const REFUSED_AT_CONNECT = '55000';
/** pg's and pg-pool's own errors for a connection that died or could not be had; they carry no code. */
const DRIVER_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout)/u;

/** Whether `error` says the database could not be reached or dropped the connection (not what a query did). */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_CODES.has(code) || SERVER_CODES.has(code) || (code.length === 5 && code.startsWith('08'));
  return DRIVER_MESSAGES.test(error.message);
}

/**
 * What a request is answered when the database could not serve it for a reason of the moment. The driver's code
 * (ECONNREFUSED, 57P01, SQLITE_BUSY) stays for readiness and logs; its message, which may name hosts or paths,
 * stays out.
 */
export class DatabaseUnavailable extends DomainError {
  readonly driverCode: string;

  constructor(cause: Error & { code?: unknown }, message: string) {
    super('unavailable', message, { retryAfter: 1 });
    this.driverCode = typeof cause.code === 'string' ? cause.code : 'closed';
    // Kept for the one reader who needs the host: start-up's own line (src/main.ts). Not enumerable, so no error
    // body or log line carries it.
    Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
  }
}

/** PostgreSQL could not be reached, or dropped the connection. */
export class ConnectionLost extends DatabaseUnavailable {
  constructor(cause: Error & { code?: unknown }) {
    super(cause, 'The database cannot be reached right now. Please try again shortly.');
  }
}

/**
 * SQLite's file stayed locked by another process (an operator's shell inside a transaction, a script) past
 * the wait for it (lock-wait.ts): SQLITE_BUSY and its extended codes. The group-commit driver throws this in its place.
 */
export class DatabaseBusy extends DatabaseUnavailable {
  constructor(cause: Error & { code?: unknown }) {
    super(cause, 'The database is busy right now. Please try again shortly.');
  }

  static is(error: unknown): error is Error & { code: string } {
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
  }
}

/**
 * SQLite could not write its file: the disk is full (SQLITE_FULL) or the file system failed a read or write
 * (SQLITE_IOERR and its extended codes). Nothing of the transaction is stored, and a request may succeed once space
 * returns, with no restart: an outage (503, retryable), as a held lock is. A disaster-recovery review filled the disk
 * under load: every write answered 500 `internal` and logged its stack, 12,189 lines in 20 s onto the same full disk.
 */
export class DatabaseCannotWrite extends DatabaseUnavailable {
  constructor(cause: Error & { code?: unknown }) {
    super(cause, 'The database cannot store anything right now. Please try again shortly.');
  }

  static is(error: unknown): error is Error & { code: string } {
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'));
  }
}

/**
 * Another instance's migration changed the columns of a table a named statement reads, after this process prepared
 * it (pg-named-statements.ts): the statement has a new name by now, so a retry runs.
 */
export class StatementOutdated extends DatabaseUnavailable {
  constructor(cause: Error & { code?: unknown }) {
    super(cause, 'The database was upgraded during this request. Please try again.');
  }
}

/**
 * SQLSTATE character_not_in_repertoire and untranslatable_character: text PostgreSQL cannot hold, U+0000. The doors
 * refuse it in bodies and variables before anything runs (src/kernel/unicode-text.ts); what reaches a query another
 * way (a GraphQL string literal) is the client's mistake too, 400, not a 500 it would retry for ever.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

function unavailable(error: unknown): unknown {
  if (isConnectionLoss(error)) return new ConnectionLost(error as Error);
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) return new DomainError('bad_request', 'A text sent holds the character U+0000 (NUL), which no field takes.');
  return isStalePlan(error) ? new StatementOutdated(error as Error) : error;
}

const rethrow = (error: unknown): never => {
  throw unavailable(error);
};

/** A connection could not be had: the database's refusal of connections counts too. */
const rethrowConnecting = (error: unknown): never => {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  throw code === REFUSED_AT_CONNECT ? new ConnectionLost(error as Error) : unavailable(error);
};

export function unavailableOnConnectionLoss(inner: Dialect): Dialect {
  return withDriver(inner, (driver) => new ConnectionLossDriver(driver));
}

class ConnectionLossDriver extends PassThroughDriver {
  /** Each pooled connection's wrapper, and back: kysely keeps one connection object per pg client. */
  private readonly outerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
  private readonly innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection().catch(rethrowConnecting);
    let outer = this.outerOf.get(connection);
    if (!outer) {
      outer = {
        executeQuery: <R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> =>
          connection.executeQuery<R>(query).catch(rethrow),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      this.outerOf.set(connection, outer);
      this.innerOf.set(outer, connection);
    }
    return outer;
  }

  override beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.unwrapped(connection), settings).catch(rethrow);
  }

  override commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.unwrapped(connection)).catch(rethrow);
  }

  override rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.unwrapped(connection)).catch(rethrow);
  }

  override releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrapped(connection));
  }

  private unwrapped(connection: DatabaseConnection): DatabaseConnection {
    return this.innerOf.get(connection) ?? connection;
  }
}
