/**
 * The gauges read from the database when Prometheus scrapes (docs/operations.md#metrics): orders by status and
 * the outbox's backlog. They count what the database holds, so every instance sharing one database answers the
 * same numbers: sum them across instances no more than once (or take one instance's).
 *
 * A scrape that cannot read the database answers these gauges without a series (the age: NaN), never a stale
 * number, and `sleeve_database_up` 0; the process metrics and the counters still come, and `/ready` says what is
 * wrong. A read gets DATABASE_READ_WITHIN_MS: with PostgreSQL frozen it waited for the query timeout (10 s), which is
 * Prometheus's whole scrape timeout, so the scrape failed and every series of the outage was lost (an operator's
 * review under faults).
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import { within } from '../kernel/bounded-wait.ts';
import type { Clock } from '../kernel/clock.ts';
import { outboxBacklog } from '../notifications/outbox-repository.ts';
import { ORDER_STATUSES } from '../orders/order.ts';
import { countOrdersByStatus } from '../orders/order-repository.ts';

/** How long a scrape waits for each database read; a scrape is usually given 10 s in all. */
const DATABASE_READ_WITHIN_MS = 2_000;

/**
 * A read the gauges of a scrape share: its value, or null when it fails or takes longer than DATABASE_READ_WITHIN_MS.
 * One read at a time: a scrape while the last read still waits on a silent database waits on that one too, rather
 * than leave another query holding a pool connection until the query timeout.
 */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T | null> {
  let pending: Promise<T | null> | null = null;
  return async () => {
    pending ??= read()
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = null)));
    return within(pending, DATABASE_READ_WITHIN_MS, () => null);
  };
}

/** `awaiting payment` → `awaiting_payment`: label values a PromQL matcher writes without quoting spaces. */
const statusLabel = (status: string) => status.replace(/ /gu, '_');

export function registerDatabaseGauges(registry: Registry, db: Db, clock: Clock): void {
  const registers = [registry];
  // One read of the orders serves a scrape's two gauges of them, as the backlog's below.
  const readOrders = sharedRead(() => countOrdersByStatus(db));
  new Gauge({
    name: 'sleeve_database_up',
    help: `Whether this scrape read the database (1) or it failed or did not answer within ${DATABASE_READ_WITHIN_MS / 1000} s (0).`,
    registers,
    async collect() {
      this.set((await readOrders()) === null ? 0 : 1);
    },
  });
  new Gauge({
    name: 'sleeve_orders',
    help: 'Orders in the database by status (awaiting_payment, received, in_progress, ready, collected, cancelled).',
    labelNames: ['status'],
    registers,
    async collect() {
      const counts = await readOrders();
      this.reset();
      if (!counts) return;
      // Every status, zero included: a series that vanishes reads as "no data", not as none left.
      for (const status of ORDER_STATUSES) this.set({ status: statusLabel(status) }, 0);
      for (const { status, count } of counts) this.set({ status: statusLabel(status) }, count);
    },
  });

  // One read serves the three outbox gauges of a scrape: the first collector to run starts it, the others share it.
  const readBacklog = sharedRead(() => outboxBacklog(db));
  new Gauge({
    name: 'sleeve_outbox_notifications',
    help: 'Outbox notifications waiting to be delivered (pending) and given up on (failed).',
    labelNames: ['state'],
    registers,
    async collect() {
      const now = await readBacklog();
      this.reset();
      if (!now) return;
      this.set({ state: 'pending' }, now.pending);
      this.set({ state: 'failed' }, now.failed);
    },
  });
  new Gauge({
    name: 'sleeve_outbox_oldest_pending_age_seconds',
    help: 'How long the oldest pending outbox notification has waited; 0 when none is pending.',
    registers,
    async collect() {
      const now = await readBacklog();
      if (!now) return this.set(Number.NaN);
      this.set(now.oldestPendingAt === null ? 0 : Math.max(0, (clock.now() - now.oldestPendingAt) / 1000));
    },
  });
}
