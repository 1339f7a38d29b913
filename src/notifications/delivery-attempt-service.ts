/**
 * Recording an attempt at a merchant's own endpoint (docs/merchant-webhooks.md#disabling-and-recovery): the
 * delivery's new state by NOTIFY_RETRY_SCHEDULE (as the bootstrap endpoint's, attempt-service.ts), the attempt, and
 * the endpoint's health, in one transaction guarded by the lease (several attempts to one commit, and with them the
 * next deliveries of their endpoints claimed, delivery-job.ts). A `410 Gone` disables the endpoint at once; a
 * failure while every attempt has failed for ENDPOINT_DISABLE_AFTER disables it; a 429/503 with `Retry-After`
 * throttles that endpoint alone. A delivery made due again while its attempt was in flight (redeliver, recover)
 * keeps that: the attempt is recorded, the row stays due.
 */
import { withAsynchronousCommit } from '../db/asynchronous-commit.ts';
import type { AppDatabase, Db } from '../db/database.ts';
import { timeOrderedId } from '../kernel/tokens.ts';
import { nextState } from './attempt-service.ts';
import { findLeasedDelivery, insertDeliveryAttempts, updateLeasedDelivery, type DeliveryAttemptRow, type DeliveryRow, type DeliveryState } from './delivery-repository.ts';
import { disableEndpoint, findEndpoint, recordHealth, type EndpointRow } from './endpoint-repository.ts';
import { ok, type DeliveryResult } from './webhook-client.ts';
import { transaction } from '../db/transaction.ts';

export interface DeliveryRecordRequest {
  row: DeliveryRow;
  owner: string;
  /** The endpoint's url the attempt went to: its health is that receiver's (the url may have changed meanwhile). */
  url: string;
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
  /** Its slot went to a delivery claimed in the same commit (RecorderOptions.claimNext): no refill for it. */
  handedOver: boolean;
}

export interface RecorderOptions {
  /**
   * In a batch's transaction, after its attempts at `endpoint` (the row as it is now: enabled, not throttled): claims
   * up to `room` more of its deliveries, the slots those attempts leave, in the same commit instead of one more; null
   * when it claims nothing, or what to run once the commit is done (send them).
   */
  claimNext?: (trx: Db, endpoint: EndpointRow, room: number) => Promise<(() => void) | null>;
  /**
   * Attempts at this endpoint still waiting for its answer. When none are, at any endpoint of the attempts waiting,
   * nothing of theirs can join the batch: it is written at once (another endpoint's, hanging or not, is not awaited).
   */
  sendingAt?: (endpointId: string) => number;
}

/** How long a finished attempt waits for others to share its commit, and how many share one at most. */
const GATHER_MS = 1;
const GATHER_MAX = 64;

interface Entry {
  request: DeliveryRecordRequest;
  resolve: (r: RecordedDelivery | null) => void;
  reject: (e: unknown) => void;
}

/**
 * Records attempts in shared transactions (group commit): an attempt that finishes waits up to GATHER_MS for others
 * (not when none of their endpoints has one more to answer), and those gathered, or those that finish while one
 * batch is written, go together in the next: one commit per batch instead of per attempt, with each endpoint's health
 * written once and the attempts in one insert. That commit does not wait for the disk (db/asynchronous-commit.ts). Each stays guarded by its own lease, and its caller learns the outcome (and publishes it) only after the
 * commit; a failed batch records none of its attempts (nor claims anything), and their leases run out, so they are
 * sent again (at least once). Null: the lease was lost.
 */
export function createDeliveryRecorder(database: AppDatabase, options: RecorderOptions = {}): (request: DeliveryRecordRequest) => Promise<RecordedDelivery | null> {
  let waiting: Entry[] = [];
  let writing = false;
  let gather: NodeJS.Timeout | null = null;
  function schedule(): void {
    if (writing || waiting.length === 0) return;
    const sendingAt = options.sendingAt;
    if (waiting.length >= GATHER_MAX || (sendingAt && waiting.every((entry) => sendingAt(entry.request.row.endpoint_id) === 0))) void flush();
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
      // Lost in a power cut, a batch's attempts are made again: it need not wait for the disk (asynchronous-commit.ts).
      const { recorded, after } = await withAsynchronousCommit(database, (trx) =>
        recordBatch(trx, database.caps.skipLocked, batch.map((entry) => entry.request), options),
      );
      batch.forEach((entry, i) => entry.resolve(recorded[i]!));
      for (const run of after) run();
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

/** A batch inside `trx`: each delivery's state, the attempts, then per endpoint its health (and its next claim). */
async function recordBatch(trx: Db, lock: boolean, requests: DeliveryRecordRequest[], options: RecorderOptions) {
  const recorded: Array<RecordedDelivery | null> = [];
  const attempts: DeliveryAttemptRow[] = [];
  const byEndpoint = new Map<string, number[]>();
  for (const request of requests) {
    const state = await leasedState(trx, lock, request);
    if (!state) {
      recorded.push(null);
      continue;
    }
    const { row, result, startedAt, now } = request;
    attempts.push({ id: timeOrderedId('att_'), delivery_id: row.id, attempt: state.attemptCount, started_at: startedAt, duration_ms: result.durationMs, status_code: result.statusCode, response_excerpt: result.excerpt, error: result.error });
    const throttledUntil = result.retryAfterMs !== null && result.retryAfterMs > 0 ? now + result.retryAfterMs : null;
    recorded.push({ nextAttemptAt: state.nextAttemptAt, disabled: null, throttledUntil, handedOver: false });
    const members = byEndpoint.get(row.endpoint_id);
    if (members) members.push(recorded.length - 1);
    else byEndpoint.set(row.endpoint_id, [recorded.length - 1]);
  }
  await insertDeliveryAttempts(trx, attempts);
  const after: Array<() => void> = [];
  for (const [endpointId, members] of byEndpoint) {
    const endpoint = await afterAttempts(trx, endpointId, members.map((i) => ({ request: requests[i]!, recorded: recorded[i]! })));
    if (!endpoint || !options.claimNext) continue;
    const now = Math.max(...members.map((i) => requests[i]!.now));
    if (endpoint.enabled !== 1 || (endpoint.throttled_until != null && Number(endpoint.throttled_until) > now)) continue;
    const run = await options.claimNext(trx, endpoint, members.length);
    if (!run) continue;
    after.push(run);
    for (const i of members) recorded[i]!.handedOver = true;
  }
  return { recorded, after };
}

/**
 * The delivery's new state, written while the lease holds; null when the lease was lost (another instance owns the
 * delivery now). A delivery made due again meanwhile (its version moved: a redelivery) stays due, and is due now.
 */
async function leasedState(trx: Db, lock: boolean, request: DeliveryRecordRequest): Promise<DeliveryState | null> {
  const { row, owner, result, now, schedule } = request;
  const delivered = ok(result);
  const stateFrom = (current: DeliveryRow): DeliveryState => {
    const common = {
      attemptCount: current.attempt_count + 1,
      deliveredAt: delivered ? now : current.delivered_at == null ? null : Number(current.delivered_at),
      lastError: delivered ? null : (result.error ?? `HTTP ${result.statusCode}`),
      now,
    };
    return Number(current.version) !== Number(row.version)
      ? // Due now at the latest: a redelivery asked for during the attempt left next_attempt_at at the lease's end.
        { ...common, status: 'PENDING', nextAttemptAt: current.next_attempt_at == null ? now : Math.min(Number(current.next_attempt_at), now), roundAttempts: current.round_attempts }
      : { ...common, ...nextState(result, current.round_attempts + 1, schedule, now), roundAttempts: current.round_attempts + 1 };
  };
  // The row as claimed is the row now while the lease holds and nobody made it due again (the version is unchanged):
  // one conditional update then. Otherwise read what changed, and write that (or nothing: the lease was lost).
  const state = stateFrom(row);
  if (await updateLeasedDelivery(trx, row.id, owner, Number(row.version), state)) return state;
  const current = await findLeasedDelivery(trx, row.id, owner, lock);
  if (!current) return null;
  const again = stateFrom(current);
  return (await updateLeasedDelivery(trx, row.id, owner, Number(current.version), again)) ? again : null;
}

/**
 * One endpoint's health after a batch's attempts at it, in the order they finished: written once. A `410 Gone`
 * disables it; so does a batch that ends still failing ENDPOINT_DISABLE_AFTER after the run of failures began (a
 * run a success of the same batch ended disables nothing: the endpoint answered). The notice goes with the attempt
 * that decided it. The endpoint row as it is now (undefined: deleted).
 */
async function afterAttempts(trx: Db, endpointId: string, batch: Array<{ request: DeliveryRecordRequest; recorded: RecordedDelivery }>): Promise<EndpointRow | undefined> {
  // Attempts at a url the endpoint has left since (a merchant moved it while they were in flight) tell nothing of
  // the receiver it has now: a late failure or 410 from the old one started a run or disabled the new one.
  const url = batch[batch.length - 1]!.request.url;
  // An attempt the gateway could not make (`unsent`: no key opened its secret or body) asked the receiver nothing.
  const members = batch.filter((member) => member.request.url === url && !member.request.result.unsent);
  if (members.length === 0) return findEndpoint(trx, endpointId, null);
  let since: number | null = null;
  let afterSuccess = false;
  let throttledUntil: number | null = null;
  for (const { request, recorded } of members) {
    if (ok(request.result)) [since, afterSuccess] = [null, true];
    else since ??= request.now;
    throttledUntil = recorded.throttledUntil ?? throttledUntil;
  }
  const endpoint = await recordHealth(trx, endpointId, url, { failing: since === null ? null : { since, afterSuccess }, throttledUntil });
  if (!endpoint) return findEndpoint(trx, endpointId, null); // moved (or deleted): its health left as it is
  const gone = members.find((member) => member.request.result.statusCode === 410);
  const last = members[members.length - 1]!;
  if (gone) {
    const reason = 'The endpoint answered 410 Gone.';
    if (await disableEndpoint(trx, endpoint.id, reason, gone.request.now)) gone.recorded.disabled = { kind: 'gone', reason, endpoint };
  } else if (!ok(last.request.result) && endpoint.failing_since != null && last.request.now - Number(endpoint.failing_since) >= last.request.disableAfterMs) {
    // For the merchant: how long, not the setting's name (failingSince says from when).
    const reason = `Every attempt failed for ${spanOf(last.request.now - Number(endpoint.failing_since))}.`;
    if (await disableEndpoint(trx, endpoint.id, reason, last.request.now)) last.recorded.disabled = { kind: 'failing', reason, endpoint };
  }
  return last.recorded.disabled ? { ...endpoint, enabled: 0 } : endpoint;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "5 days", "3 hours", "95 minutes": a failure run's length, in the largest unit that leaves at least 2. */
function spanOf(ms: number): string {
  // Seconds under two minutes: a short ENDPOINT_DISABLE_AFTER said "0 minutes".
  const [unit, size] = ms >= 2 * DAY_MS ? ['day', DAY_MS] : ms >= 2 * HOUR_MS ? ['hour', HOUR_MS] : ms >= 2 * MINUTE_MS ? ['minute', MINUTE_MS] : ['second', 1_000];
  const count = Math.floor(ms / size);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Marks a leased delivery DROPPED, unsent (nothing left to ask, docs/notifications.md#decided-at-send-time). */
export async function dropDelivery(database: AppDatabase, row: DeliveryRow, owner: string, reason: string, now: number): Promise<boolean> {
  return transaction(database.db, async (trx) => {
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
