/**
 * The gauges read from the database when Prometheus scrapes (docs/operations.md#metrics): orders by status and
 * the outbox's backlog. They count what the database holds, so every instance sharing one database answers the
 * same numbers: sum them across instances no more than once (or take one instance's).
 *
 * A scrape that cannot read the database answers these gauges without a series (the age: NaN), never a stale
 * number; the process metrics and the counters still come, and `/ready` says what is wrong.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { Clock } from '../kernel/clock.ts';
import { outboxBacklog } from '../notifications/outbox-repository.ts';
import { ORDER_STATUSES } from '../orders/order.ts';
import { countOrdersByStatus } from '../orders/order-repository.ts';

/** `awaiting payment` → `awaiting_payment`: label values a PromQL matcher writes without quoting spaces. */
const statusLabel = (status: string) => status.replace(/ /gu, '_');

export function registerDatabaseGauges(registry: Registry, db: Db, clock: Clock): void {
  const registers = [registry];
  new Gauge({
    name: 'sleeve_orders',
    help: 'Orders in the database by status (awaiting_payment, received, in_progress, ready, collected, cancelled).',
    labelNames: ['status'],
    registers,
    async collect() {
      const counts = await countOrdersByStatus(db).catch(() => null);
      this.reset();
      if (!counts) return;
      // Every status, zero included: a series that vanishes reads as "no data", not as none left.
      for (const status of ORDER_STATUSES) this.set({ status: statusLabel(status) }, 0);
      for (const { status, count } of counts) this.set({ status: statusLabel(status) }, count);
    },
  });

  // One read serves the three outbox gauges of a scrape: the first collector to run starts it, the others share it.
  let backlog: ReturnType<typeof outboxBacklog> | null = null;
  const readBacklog = () => {
    backlog ??= outboxBacklog(db).finally(() => setImmediate(() => (backlog = null)));
    return backlog.catch(() => null);
  };
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
