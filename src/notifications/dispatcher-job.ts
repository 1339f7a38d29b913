/**
 * The outbox dispatcher (docs/notifications.md#delivery-and-retries): claims due rows with a lease, signs and POSTs them to MERCHANT_ENDPOINT,
 * records every attempt, retries on NOTIFY_RETRY_SCHEDULE, then marks FAILED.
 *
 * - Claim: one statement leases due rows to this instance (`for update skip locked` on PostgreSQL, a conditional
 *   update on SQLite), so several instances never send a row at once; a dead instance's lease runs out.
 * - Prepare: open a sealed body, and decide what depends on the moment of sending (an evidence request lists what
 *   its claim still misses, or is DROPPED when nothing is; docs/notifications.md#decided-at-send-time).
 * - Deliver: outside any transaction (DESIGN.md), at most MAX_IN_FLIGHT at a time.
 * - Record: the attempt and the row's new state in one transaction, only while this instance still holds the
 *   lease; a staff redelivery asked for meanwhile keeps the row due (docs/notifications.md#redelivery-during-an-attempt).
 *   A crash between the POST and the record leaves the row leased; when the lease runs out it is sent again with
 *   the same id (at-least-once; receivers drop duplicates by `webhook-id`).
 * - Wake: on `notificationQueued` for a row that waits for MERCHANT_ENDPOINT, on a timer for the next due row or lease
 *   end, and on a slow safety poll.
 * With MERCHANT_ENDPOINT unset nothing is claimed: rows stay PENDING with no attempts.
 */
import { claimDue, nextWake, releaseLease, type OutboxRow } from './outbox-repository.ts';
import type { BackgroundDeps, Disposable } from '../jobs/background.ts';
import type { GatewayMetrics } from '../operations/metrics.ts';
import { createDueTimer } from '../jobs/due-sweeper.ts';
import { randomId } from '../kernel/tokens.ts';
import { DeliveriesInFlight, deliver, DELIVERY_TIMEOUT_MS, ok, type DeliveryResult } from './webhook-client.ts';
import { createRecorder, recordDrop } from './attempt-service.ts';
import { sealPlaintextBodies } from './outbox-service.ts';
import { bodyToSend } from './sealed-body.ts';
import { bodyAtSend, evidenceClaimId, type AtSend } from './send-time.ts';
import { bodySignature, standardWebhooksHeaders } from './signing.ts';
import { startDeliveryDispatcher } from './delivery-job.ts';

/** Longer than one attempt can take, so a live instance never loses a lease mid-delivery. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const MAX_IN_FLIGHT = 64;
/** A safety net only: queued rows announce themselves, and retries and leases arm a timer of their own. */
const POLL_MS = 60_000;

/** The dispatcher's deps: a background job's, and where each attempt is counted (docs/operations.md#metrics). */
export type DispatcherDeps = BackgroundDeps & { metrics?: Pick<GatewayMetrics, 'deliveryAttempted'> & Partial<Pick<GatewayMetrics, 'endpointDisabled'>> };

export const startDispatcher = async (deps: DispatcherDeps): Promise<Disposable> => {
  // Before anything is sent, and with or without an endpoint: no body queued in the clear stays so.
  const sealed = await sealPlaintextBodies(deps.database.db);
  if (sealed > 0) deps.logger.info('sealed outbox bodies queued with a token in the clear', { count: sealed });
  // Every site's own endpoints (docs/merchant-webhooks.md), beside and apart from MERCHANT_ENDPOINT's dispatcher.
  const endpoints = await startDeliveryDispatcher(deps);
  const endpoint = deps.config.merchantEndpoint;
  if (!endpoint) return endpoints;
  const bootstrap = await runDispatcher(deps, endpoint);
  return { dispose: async () => void (await Promise.all([bootstrap.dispose(), endpoints.dispose()])) };
};

async function runDispatcher(deps: DispatcherDeps, endpoint: string): Promise<Disposable> {
  const { database, config, clock, bus, logger, services, metrics } = deps;
  const owner = randomId('dispatcher_');
  const inFlight = new DeliveriesInFlight<void>();
  const record = createRecorder(database);
  let stopped = false;
  const timer = createDueTimer(clock, () => sweep());
  const arm = timer.arm;
  let sweeping: Promise<void> | null = null;
  let again = false;
  /** The last claim was cut short by MAX_IN_FLIGHT: once half the deliveries in flight finish, sweep again. */
  let backlog = false;

  /** Claims and starts what is due; runs one at a time (a wake during a sweep makes it go round once more). */
  function sweep(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (sweeping) {
      again = true;
      return sweeping;
    }
    sweeping = (async () => {
      try {
        do {
          again = false;
          const room = MAX_IN_FLIGHT - inFlight.size;
          backlog = room <= 0;
          if (backlog) break;
          const now = clock.now();
          const rows = await claimDue(database.db, { owner, now, leaseMs: LEASE_MS, limit: room, skipLocked: database.caps.skipLocked });
          for (const row of rows) track(send(row));
          if (rows.length === room) again = true;
        } while (again && !stopped);
        // With a backlog, finishing deliveries sweep again; the next due time matters once it is worked off.
        const next = backlog ? null : await nextWake(database.db, clock.now());
        arm(Math.min(next ?? Infinity, clock.now() + POLL_MS));
      } catch (error) {
        logger.error('notification sweep failed; retrying', { error });
        arm(clock.now() + 1_000);
      } finally {
        sweeping = null;
        // A wake that came after the last claim (say, while the next due time was read) gets a sweep of its own.
        if (again && !stopped) void sweep();
      }
    })();
    return sweeping;
  }

  function track(work: Promise<void>): void {
    inFlight.add(work);
    void work.finally(() => {
      inFlight.delete(work);
      // Refill in batches, not one claim per finished delivery.
      if (backlog && !stopped && inFlight.size <= MAX_IN_FLIGHT / 2) void sweep();
    });
  }

  async function send(row: OutboxRow): Promise<void> {
    try {
      const sentAt = clock.now();
      const prepared = await prepare(row, sentAt);
      if ('drop' in prepared) return await drop(row, prepared.drop);
      const result = 'unopened' in prepared ? prepared.unopened : await post(row, prepared.send, sentAt);
      if (result.interrupted) {
        await releaseLease(database.db, row.id, owner);
        return;
      }
      metrics?.deliveryAttempted(ok(result) ? 'delivered' : result.statusCode === null ? 'no_response' : 'http_error', result.durationMs / 1000);
      const recorded = await record({ row, owner, result, startedAt: sentAt, now: clock.now(), schedule: config.notifyRetrySchedule });
      if (!recorded) return;
      // After commit: staff streams see every attempt (notificationEvents); a retry (or a redelivery asked for
      // during this attempt) arms the timer.
      bus.publish('notificationAttempted', { id: recorded.id, attempt: recorded.attempt });
      if (recorded.nextAttemptAt !== null) arm(recorded.nextAttemptAt);
    } catch (error) {
      logger.error('notification delivery could not be recorded; its lease will run out', { error, id: row.id });
    }
  }

  /**
   * What to do with a due row, decided now (docs/notifications.md#decided-at-send-time): its body opened (it may
   * be sealed; docs/notifications.md#secrets-in-the-outbox), an evidence request narrowed to what its claim still
   * misses, asked of the disputes area through its service. A body no key of this instance opens is not sent: it
   * is a failed attempt that staff see.
   */
  async function prepare(row: OutboxRow, now: number): Promise<AtSend | { unopened: DeliveryResult }> {
    let queued: string;
    try {
      queued = bodyToSend(row.body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { unopened: { statusCode: null, excerpt: null, error: reason, durationMs: 0, retryAfterMs: null, interrupted: false } };
    }
    const claimId = evidenceClaimId(row.path, queued);
    const claim = claimId === null ? null : await services.disputes.claims.find(claimId);
    return bodyAtSend(row.path, row.id, queued, now, claim);
  }

  /** Signs the exact bytes and POSTs them. */
  function post(row: OutboxRow, body: string, sentAt: number): Promise<DeliveryResult> {
    const headers = standardWebhooksHeaders(row.id, sentAt, body, config.merchantSigningKey);
    if (row.path === '/token-updated') headers.signature = bodySignature(body, config.merchantSigningKey);
    return deliver({ url: endpoint + row.path, headers, body, traceParent: row.trace_parent, askedBy: row.redelivery_trace_parent }, { clock, signal: inFlight.signal });
  }

  async function drop(row: OutboxRow, reason: string): Promise<void> {
    const dueAgain = await recordDrop(database, row, owner, reason, clock.now());
    if (dueAgain === undefined) return;
    if (dueAgain === null) bus.publish('notificationAttempted', { id: row.id, attempt: row.attempt_count });
    else arm(dueAgain);
  }

  // After the publisher's call, as the subscription's loop ran it: the publisher may be this dispatcher, mid-sweep.
  // Only for rows that wait for MERCHANT_ENDPOINT (`outbox`); an older instance's event does not say, and wakes it.
  const unlisten = bus.listen('notificationQueued', (event) => {
    if (event.outbox !== false) queueMicrotask(() => void sweep());
  });
  // After a break in Redis, rows queued meanwhile were announced to nobody: swept now, not at the next poll.
  const unresume = bus.onResume(() => void sweep());

  await sweep(); // rows queued while no dispatcher ran, and leases of an instance that died
  return {
    async dispose() {
      stopped = true;
      timer.stop();
      unlisten();
      unresume();
      await sweeping;
      await inFlight.drain();
    },
  };
}
