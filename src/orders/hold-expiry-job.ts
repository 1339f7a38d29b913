/**
 * Ends unpaid holds exactly at holdUntil (document 1 §3), with no request needed to trigger it.
 * One timer, armed for the earliest running hold; re-armed after every sweep and whenever a new hold starts
 * earlier. The sweep is a conditional update, so a restart (sweep at start), a second instance or a racing
 * lookup can never cancel an order twice. A slow safety poll covers anything the timer could miss.
 */
import type { Clock } from '../kernel/clock.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Logger } from '../kernel/logger.ts';
import type { OrderService } from './order-service.ts';

import type { Disposable } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

export interface HoldExpiryDeps {
  orders: Pick<OrderService, 'expireDue' | 'nextHoldEnd'>;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
  /** Re-check the database this often even when no event arrives (another instance's holds). */
  pollMs?: number;
}

/** While the link to Redis is down, how soon the sweep looks again (its return also arms one at once). */
const LINK_DOWN_RETRY_MS = 1_000;

export function startHoldExpiry({ orders, clock, bus, logger, pollMs = 30_000 }: HoldExpiryDeps): Promise<Disposable> {
  return startDueJob({
    clock,
    logger,
    name: 'hold expiry',
    pollMs,
    async sweepOnce() {
      // Cut off from Redis, its announcement would reach no instance (an operator's review): the instances that
      // can tell it sweep, and a request about an order past its hold still ends it (order-service's lookup, pay).
      if (bus.redisLink?.up === false) return clock.now() + LINK_DOWN_RETRY_MS;
      await orders.expireDue();
      return orders.nextHoldEnd();
    },
    // A new hold may end before the one the timer is armed for. After a break in Redis the holds created meanwhile
    // were announced to nobody: a sweep finds them (and arms for the earliest), without waiting for the poll.
    watch: (arm) => {
      const unlisten = bus.listen('orderChanged', (event) => {
        if (event.change === 'created') arm(event.holdUntil);
      });
      const unresume = bus.onResume(() => arm(clock.now()));
      const unlinked = bus.redisLink?.onChange((up) => up && arm(clock.now()));
      return () => {
        unlisten();
        unresume();
        unlinked?.();
      };
    },
  });
}
