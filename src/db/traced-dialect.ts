/**
 * Database transactions as spans (docs/operations.md#tracing): the dialect's driver wrapped so that every
 * transaction, whichever service opens it, is one `db.transaction` span from BEGIN to COMMIT or ROLLBACK, a child
 * of the request or operation that opened it. One place instead of twenty call sites; while tracing is off each
 * call costs one boolean test.
 */
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import { SpanKind, SpanStatusCode, startSpan } from '../operations/tracing.ts';
import type { Span } from '@opentelemetry/api';
import { PassThroughDriver, withDriver } from './driver-wrapper.ts';

export function tracedDialect(inner: Dialect, system: 'sqlite' | 'postgresql'): Dialect {
  return withDriver(inner, (driver) => new TracedDriver(driver, system));
}

class TracedDriver extends PassThroughDriver {
  private readonly spans = new WeakMap<DatabaseConnection, Span>();

  constructor(
    inner: Driver,
    private readonly system: 'sqlite' | 'postgresql',
  ) {
    super(inner);
  }

  // Without a span (tracing off) the inner driver's promise is handed back as it is: an async wrapper would make two
  // more promises per transaction, each a hook call while the request scope is on (Node 20).
  override beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const span = startSpan('db.transaction', SpanKind.CLIENT, { 'db.system.name': this.system });
    if (!span) return this.inner.beginTransaction(connection, settings);
    this.spans.set(connection, span);
    return this.traced(connection, this.inner.beginTransaction(connection, settings), false);
  }

  override commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.spans.has(connection)) return this.inner.commitTransaction(connection);
    return this.traced(connection, this.inner.commitTransaction(connection), true);
  }

  /** The span ends when `work` fails, or, with `endOnSuccess`, when it succeeds. */
  private async traced(connection: DatabaseConnection, work: Promise<void>, endOnSuccess: boolean): Promise<void> {
    try {
      await work;
      if (endOnSuccess) this.end(connection);
    } catch (error) {
      this.end(connection, error);
      throw error;
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } finally {
      this.end(connection, 'rolled back');
    }
  }

  private end(connection: DatabaseConnection, error?: unknown): void {
    const span = this.spans.get(connection);
    if (!span) return;
    this.spans.delete(connection);
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: typeof error === 'string' ? error : 'transaction failed' });
    span.end();
  }
}
