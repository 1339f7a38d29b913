/**
 * Recording an attempt (docs/notifications.md#delivery-and-retries): any 2xx is delivered; anything else (another status, a timeout, a refused
 * connection) waits NOTIFY_RETRY_SCHEDULE[n] after attempt n (or longer, when a 429/503 asked for it with
 * `Retry-After`), and after the last entry the row is FAILED. The attempt and the row's new state are written
 * together, guarded by the lease.
 */
import type { AppDatabase, Db } from '../db/database.ts';
import { findLeased, recordAttempt, type OutboxRow } from './outbox-repository.ts';
import type { OutboxStatus } from './outbox-tables.ts';
import { randomId } from '../kernel/tokens.ts';
import { ok, type DeliveryResult } from './webhook-client.ts';

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
  /** When the next attempt is due; null once DELIVERED or FAILED. */
  nextAttemptAt: number | null;
}

/** Records one attempt inside `trx`; null when the lease was lost (another instance owns the row now). */
async function recordIn(trx: Db, lock: boolean, { row, owner, result, startedAt, now, schedule }: RecordRequest): Promise<RecordedAttempt | null> {
  const current = await findLeased(trx, row.id, owner, lock);
  if (!current) return null;
  const attempt = current.attempt_count + 1;
  const { status, nextAttemptAt } = nextState(result, current.round_attempts + 1, schedule, now);
  const lastError = ok(result) ? null : (result.error ?? `HTTP ${result.statusCode}`);
  await recordAttempt(
    trx,
    current,
    {
      id: randomId('att_'),
      notification_id: row.id,
      attempt,
      started_at: startedAt,
      duration_ms: result.durationMs,
      status_code: result.statusCode,
      response_excerpt: result.excerpt,
      error: result.error,
    },
    { status, nextAttemptAt, now, lastError },
  );
  return { id: row.id, attempt, nextAttemptAt };
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
        const results = await database.db.transaction().execute(async (trx) => {
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
