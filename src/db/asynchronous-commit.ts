/**
 * Transactions that record only work that may happen again, committed without waiting for the disk
 * (docs/running.md#asynchronous-commit): PostgreSQL's asynchronous commit, `synchronous_commit = off` for the
 * transaction alone, and on SQLite a group-commit batch under `synchronous = NORMAL` (batch-durability.ts).
 *
 * Only for records whose loss in a power cut or a crash of the database server repeats work, never loses it: an
 * attempt at a webhook endpoint (lost, the delivery is sent again, and webhooks are delivered at least once) and the
 * claims made with it. The commit is still atomic, still seen at once by every other connection, and still survives
 * a crash of the gateway's own process; what may be taken back are the last such commits before a power cut, in
 * order. Orders, payments, queued notifications and everything else keep the sync (docs/running.md#durability-of-the-embedded-database).
 */
import { sql } from 'kysely';
import type { AppDatabase } from './database.ts';
import { transaction, type Work } from './transaction.ts';

export function withAsynchronousCommit<T>(database: AppDatabase, work: Work<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    return transaction(database.db, async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  return transaction(database.db, work, { mayRepeat: true });
}
