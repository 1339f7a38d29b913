/**
 * Recording an attempt at a merchant's own endpoint (docs/merchant-webhooks.md#disabling-and-recovery): the
 * delivery's new state by NOTIFY_RETRY_SCHEDULE (as the bootstrap endpoint's, attempt-service.ts), the attempt, and
 * the endpoint's health, in one transaction guarded by the lease. A `410 Gone` disables the endpoint at once; a
 * failure while every attempt has failed for ENDPOINT_DISABLE_AFTER disables it; a 429/503 with `Retry-After`
 * throttles that endpoint alone. A delivery made due again while its attempt was in flight (redeliver, recover)
 * keeps that: the attempt is recorded, the row stays due.
 */
import type { AppDatabase, Db } from '../db/database.ts';
import { randomId } from '../kernel/tokens.ts';
import { nextState } from './attempt-service.ts';
import { findLeasedDelivery, insertDeliveryAttempt, updateLeasedDelivery, type DeliveryRow, type DeliveryState } from './delivery-repository.ts';
import { disableEndpoint, recordHealth, type EndpointRow } from './endpoint-repository.ts';
import { ok, type DeliveryResult } from './webhook-client.ts';

export interface DeliveryRecordRequest {
  row: DeliveryRow;
  owner: string;
  result: DeliveryResult;
  startedAt: number;
  now: number;
  schedule: readonly number[];
  disableAfterMs: number;
}

export interface RecordedDelivery {
  nextAttemptAt: number | null;
  /** Set when this attempt disabled the endpoint. */
  disabled: { kind: 'gone' | 'failing'; reason: string; endpoint: EndpointRow } | null;
  throttledUntil: number | null;
}

/** How long a finished attempt waits for others to share its commit, and how many share one at most. */
const GATHER_MS = 1;
const GATHER_MAX = 64;

/**
 * Records attempts in shared transactions (group commit): an attempt that finishes waits up to GATHER_MS for others,
 * and those gathered, or those that finish while one batch is written, go together in the next: one commit (one
 * fsync on SQLite) per batch instead of per attempt. Each stays guarded by its own lease, and its caller learns the
 * outcome (and publishes it) only after the commit; a failed batch records none of its attempts, and their leases run
 * out, so they are sent again (at least once). Null: the lease was lost.
 */
export function createDeliveryRecorder(database: AppDatabase): (request: DeliveryRecordRequest) => Promise<RecordedDelivery | null> {
  let waiting: Array<{ request: DeliveryRecordRequest; resolve: (r: RecordedDelivery | null) => void; reject: (e: unknown) => void }> = [];
  let writing = false;
  let gather: NodeJS.Timeout | null = null;
  function schedule(): void {
    if (writing || waiting.length === 0) return;
    if (waiting.length >= GATHER_MAX) void flush();
    else gather ??= setTimeout(() => void flush(), GATHER_MS);
  }
  async function flush(): Promise<void> {
    if (gather) clearTimeout(gather);
    gather = null;
    if (writing) return;
    writing = true;
    const batch = waiting;
    waiting = [];
    try {
      const results = await database.db.transaction().execute(async (trx) => {
        const recorded: Array<RecordedDelivery | null> = [];
        for (const { request } of batch) recorded.push(await recordIn(trx, database.caps.skipLocked, request));
        return recorded;
      });
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      writing = false;
      schedule();
    }
  }
  return (request) =>
    new Promise((resolve, reject) => {
      waiting.push({ request, resolve, reject });
      schedule();
    });
}

/** Records one attempt inside `trx`; null when the lease was lost (another instance owns the delivery now). */
async function recordIn(trx: Db, lock: boolean, request: DeliveryRecordRequest): Promise<RecordedDelivery | null> {
  const { row, owner, result, startedAt, now, schedule } = request;
  const delivered = ok(result);
  const stateFrom = (current: DeliveryRow): DeliveryState => {
    const common = {
      attemptCount: current.attempt_count + 1,
      deliveredAt: delivered ? now : current.delivered_at == null ? null : Number(current.delivered_at),
      lastError: delivered ? null : (result.error ?? `HTTP ${result.statusCode}`),
      now,
    };
    return Number(current.version) !== Number(row.version)
      ? { ...common, status: 'PENDING', nextAttemptAt: current.next_attempt_at == null ? now : Number(current.next_attempt_at), roundAttempts: current.round_attempts }
      : { ...common, ...nextState(result, current.round_attempts + 1, schedule, now), roundAttempts: current.round_attempts + 1 };
  };
  // The row as claimed is the row now while the lease holds and nobody made it due again (the version is unchanged):
  // one conditional update then. Otherwise read what changed, and write that (or nothing: the lease was lost).
  let state = stateFrom(row);
  if (!(await updateLeasedDelivery(trx, row.id, owner, Number(row.version), state))) {
    const current = await findLeasedDelivery(trx, row.id, owner, lock);
    if (!current) return null;
    state = stateFrom(current);
    if (!(await updateLeasedDelivery(trx, row.id, owner, Number(current.version), state))) return null;
  }
  return afterUpdate(trx, request, state, delivered);
}

async function afterUpdate(trx: Db, request: DeliveryRecordRequest, state: DeliveryState, delivered: boolean): Promise<RecordedDelivery> {
  const { row, result, startedAt, now, disableAfterMs } = request;
  await insertDeliveryAttempt(trx, {
    id: randomId('att_'),
    delivery_id: row.id,
    attempt: state.attemptCount,
    started_at: startedAt,
    duration_ms: result.durationMs,
    status_code: result.statusCode,
    response_excerpt: result.excerpt,
    error: result.error,
  });
  const throttledUntil = result.retryAfterMs !== null && result.retryAfterMs > 0 ? now + result.retryAfterMs : null;
  const endpoint = await recordHealth(trx, row.endpoint_id, { ok: delivered, now, throttledUntil });
  let disabled: RecordedDelivery['disabled'] = null;
  if (endpoint && result.statusCode === 410) {
    const reason = 'The endpoint answered 410 Gone.';
    if (await disableEndpoint(trx, endpoint.id, reason, now)) disabled = { kind: 'gone', reason, endpoint };
  } else if (endpoint && !delivered && endpoint.failing_since != null && now - Number(endpoint.failing_since) >= disableAfterMs) {
    const reason = `Every attempt failed since ${new Date(Number(endpoint.failing_since)).toISOString()} (ENDPOINT_DISABLE_AFTER).`;
    if (await disableEndpoint(trx, endpoint.id, reason, now)) disabled = { kind: 'failing', reason, endpoint };
  }
  return { nextAttemptAt: state.nextAttemptAt, disabled, throttledUntil };
}

/** Marks a leased delivery DROPPED, unsent (nothing left to ask, docs/notifications.md#decided-at-send-time). */
export async function dropDelivery(database: AppDatabase, row: DeliveryRow, owner: string, reason: string, now: number): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const current = await findLeasedDelivery(trx, row.id, owner, database.caps.skipLocked);
    if (!current) return false;
    return updateLeasedDelivery(trx, row.id, owner, Number(current.version), {
      status: 'DROPPED',
      nextAttemptAt: null,
      roundAttempts: current.round_attempts,
      attemptCount: current.attempt_count,
      deliveredAt: null,
      lastError: reason.slice(0, 500),
      now,
    });
  });
}
