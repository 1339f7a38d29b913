/**
 * The outbox dispatcher (docs/notifications.md#delivery-and-retries): claims due rows with a lease, signs and POSTs them to MERCHANT_ENDPOINT,
 * records every attempt, retries on NOTIFY_RETRY_SCHEDULE, then marks FAILED.
 *
 * - Claim: one statement leases due rows to this instance (`for update skip locked` on PostgreSQL, a conditional
 *   update on SQLite), so several instances never send a row at once; a dead instance's lease runs out.
 * - Deliver: outside any transaction (DESIGN.md), at most MAX_IN_FLIGHT at a time.
 * - Record: the attempt and the row's new state in one transaction, only while this instance still holds the
 *   lease. A crash between the POST and the record leaves the row leased; when the lease runs out it is sent
 *   again with the same id (at-least-once; receivers drop duplicates by `webhook-id`).
 * - Wake: on `notificationQueued`, on a timer for the next due row or lease end, and on a slow safety poll.
 * With MERCHANT_ENDPOINT unset nothing is claimed: rows stay PENDING with no attempts.
 */
import { setMaxListeners } from 'node:events';
import { claimDue, nextWake, releaseLease, type OutboxRow } from './outbox-repository.ts';
import type { BackgroundDeps, BackgroundJob, Disposable } from '../jobs/background.ts';
import { createDueTimer } from '../jobs/due-sweeper.ts';
import { randomId } from '../kernel/tokens.ts';
import { deliver, DELIVERY_TIMEOUT_MS, Shutdown } from './webhook-client.ts';
import { createRecorder } from './attempt-service.ts';
import { bodyAtSend } from './send-time.ts';
import { bodySignature, standardWebhooksHeaders } from './signing.ts';

/** Longer than one attempt can take, so a live instance never loses a lease mid-delivery. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const MAX_IN_FLIGHT = 64;
/** A safety net only: queued rows announce themselves, and retries and leases arm a timer of their own. */
const POLL_MS = 60_000;
/** On dispose, deliveries in flight get this long (wall time) to finish and be recorded; the rest are released. */
const SHUTDOWN_GRACE_MS = 3_000;

export const startDispatcher: BackgroundJob = async (deps) => {
  const endpoint = deps.config.merchantEndpoint;
  if (!endpoint) return { dispose: async () => {} };
  return runDispatcher(deps, endpoint);
};

async function runDispatcher(deps: BackgroundDeps, endpoint: string): Promise<Disposable> {
  const { database, config, clock, bus, logger } = deps;
  const owner = randomId('dispatcher_');
  const shutdown = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const record = createRecorder(database);
  let stopped = false;
  const timer = createDueTimer(clock, () => sweep());
  const arm = timer.arm;
  let sweeping: Promise<void> | null = null;
  let again = false;
  /** The last claim was cut short by MAX_IN_FLIGHT: once half the deliveries in flight finish, sweep again. */
  let backlog = false;
  setMaxListeners(MAX_IN_FLIGHT + 1, shutdown.signal); // one listener per delivery in flight

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
      const body = bodyAtSend(row.path, row.id, row.body, sentAt);
      const headers = standardWebhooksHeaders(row.id, sentAt, body, config.merchantSigningKey);
      if (row.path === '/token-updated') headers.signature = bodySignature(body, config.merchantSigningKey);
      const result = await deliver({ url: endpoint + row.path, headers, body }, { clock, signal: shutdown.signal });
      if (result.interrupted) {
        await releaseLease(database.db, row.id, owner);
        return;
      }
      const recorded = await record({ row, owner, result, startedAt: sentAt, now: clock.now(), schedule: config.notifyRetrySchedule });
      if (!recorded) return;
      // After commit: staff streams see every attempt (notificationEvents); a retry arms the timer.
      bus.publish('notificationAttempted', { id: recorded.id, attempt: recorded.attempt });
      if (recorded.nextAttemptAt !== null) arm(recorded.nextAttemptAt);
    } catch (error) {
      logger.error('notification delivery could not be recorded; its lease will run out', { error, id: row.id });
    }
  }

  const subscription = bus.subscribe('notificationQueued');
  void (async () => {
    for await (const _event of subscription) void sweep();
  })();

  await sweep(); // rows queued while no dispatcher ran, and leases of an instance that died
  return {
    async dispose() {
      stopped = true;
      timer.stop();
      await subscription.return?.();
      await sweeping;
      const grace = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      shutdown.abort(new Shutdown('the dispatcher is stopping'));
      await Promise.allSettled([...inFlight]);
    },
  };
}
