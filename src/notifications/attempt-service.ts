/**
 * Recording an attempt (docs/notifications.md#delivery-and-retries): any 2xx is delivered; anything else (another status, a timeout, a refused
 * connection) waits NOTIFY_RETRY_SCHEDULE[n] after attempt n (or longer, when a 429/503 asked for it with
 * `Retry-After`), and after the last entry the row is FAILED. The attempt and the row's new state are written
 * together, guarded by the lease. A staff redelivery that came while the attempt was in flight wins over its outcome
 * (docs/notifications.md#redelivery-during-an-attempt): the attempt is recorded, and the row stays due as the
 * redelivery left it. A notification dropped at send time is recorded here too, under the same guard.
 */
import { withAsynchronousCommit } from '../db/asynchronous-commit.ts';
import type { AppDatabase, Db } from '../db/database.ts';
import { findLeased, insertAttempt, releaseLease, updateLeased, type OutboxRow, type RowState } from './outbox-repository.ts';
import type { OutboxStatus } from './outbox-tables.ts';
import { timeOrderedId } from '../kernel/tokens.ts';
import { ok, type DeliveryResult } from './webhook-client.ts';
import { transaction } from '../db/transaction.ts';

export interface RecordRequest {
  row: OutboxRow;
  owner: string;
  result: DeliveryResult;
  startedAt: number;
  now: number;
  schedule: readonly number[];
}

/** What the schedule says after `roundAttempts` attempts of this round, the last of which gave `result`. */
export function nextState(result: DeliveryResult, roundAttempts: number, schedule: readonly number[], now: number): { status: OutboxStatus; nextAttemptAt: number | null } {
  if (ok(result)) return { status: 'DELIVERED', nextAttemptAt: null };
  const wait = schedule[roundAttempts];
  if (wait === undefined) return { status: 'FAILED', nextAttemptAt: null };
  return { status: 'PENDING', nextAttemptAt: now + Math.max(wait, result.retryAfterMs ?? 0) };
}

export interface RecordedAttempt {
  id: string;
  attempt: number;
  /** When the next attempt is due; null once DELIVERED, FAILED or DROPPED. */
  nextAttemptAt: number | null;
}

/** Whether staff redelivered the row since `leased` was read when it was claimed. */
const redeliveredSince = (leased: OutboxRow, current: OutboxRow) => Number(current.redeliveries) !== Number(leased.redeliveries);

/** Records one attempt inside `trx`; null when the lease was lost (another instance owns the row now). */
async function recordIn(trx: Db, lock: boolean, { row, owner, result, startedAt, now, schedule }: RecordRequest): Promise<RecordedAttempt | null> {
  const current = await findLeased(trx, row.id, owner, lock);
  if (!current) return null;
  const attempt = current.attempt_count + 1;
  const delivered = ok(result);
  const lastError = delivered ? null : (result.error ?? `HTTP ${result.statusCode}`);
  const common = { attemptCount: attempt, deliveredAt: delivered ? now : current.delivered_at, lastError, now };
  // The comparison is made here, on the row locked for this transaction (PostgreSQL) or under SQLite's one writer,
  // and repeated in the update's condition: a redelivery can never slip between the two.
  const state: RowState = redeliveredSince(row, current)
    ? // Asked for during this attempt: it stays PENDING, due when the redelivery said, its new round untouched.
      { ...common, status: 'PENDING', nextAttemptAt: current.next_attempt_at === null ? now : Number(current.next_attempt_at), roundAttempts: current.round_attempts }
    : { ...common, ...nextState(result, current.round_attempts + 1, schedule, now), roundAttempts: current.round_attempts + 1 };
  if (!(await updateLeased(trx, row.id, owner, Number(current.redeliveries), state))) return null;
  await insertAttempt(trx, {
    id: timeOrderedId('att_'),
    notification_id: row.id,
    attempt,
    started_at: startedAt,
    duration_ms: result.durationMs,
    status_code: result.statusCode,
    response_excerpt: result.excerpt,
    error: result.error,
  });
  return { id: row.id, attempt, nextAttemptAt: state.nextAttemptAt };
}

/**
 * Marks a leased row DROPPED, unsent, with `reason` for staff (docs/notifications.md#decided-at-send-time). A
 * redelivery that came meanwhile is honoured instead: the lease is given back and the row, due, is judged again.
 * Returns when the row is due again (null once dropped), or undefined when the lease was lost.
 */
export async function recordDrop(database: AppDatabase, row: OutboxRow, owner: string, reason: string, now: number): Promise<number | null | undefined> {
  return transaction(database.db, async (trx) => {
    const current = await findLeased(trx, row.id, owner, database.caps.skipLocked);
    if (!current) return undefined;
    if (redeliveredSince(row, current)) {
      await releaseLease(trx, row.id, owner);
      return current.next_attempt_at === null ? now : Number(current.next_attempt_at);
    }
    const state: RowState = {
      status: 'DROPPED',
      nextAttemptAt: null,
      roundAttempts: current.round_attempts,
      attemptCount: current.attempt_count,
      deliveredAt: current.delivered_at,
      lastError: reason.slice(0, 500),
      now,
    };
    return (await updateLeased(trx, row.id, owner, Number(current.redeliveries), state)) ? null : undefined;
  });
}

/**
 * Records attempts in shared transactions: those that finish while one is being written are written together in
 * the next, so a busy dispatcher pays one commit per batch instead of one per delivery. Each row stays guarded by
 * its own lease; if a batch fails, none of it is recorded and those rows go out again when their leases run out.
 */
export function createRecorder(database: AppDatabase): (request: RecordRequest) => Promise<RecordedAttempt | null> {
  let waiting: Array<{ request: RecordRequest; resolve: (r: RecordedAttempt | null) => void; reject: (e: unknown) => void }> = [];
  let writing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        // Lost in a power cut, these attempts are made again: no wait for the disk (asynchronous-commit.ts).
        const results = await withAsynchronousCommit(database, async (trx) => {
          const recorded: Array<RecordedAttempt | null> = [];
          for (const { request } of batch) recorded.push(await recordIn(trx, database.caps.skipLocked, request));
          return recorded;
        });
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writing = null;
  }

  return (request) =>
    new Promise((resolve, reject) => {
      waiting.push({ request, resolve, reject });
      writing ??= flush();
    });
}
