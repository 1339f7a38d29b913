/**
 * Ends unpaid holds exactly at holdUntil (document 1 §3), with no request needed to trigger it.
 * One timer, armed for the earliest running hold; re-armed after every sweep and whenever a new hold starts
 * earlier. The sweep is a conditional update, so a restart (sweep at start), a second instance or a racing
 * lookup can never cancel an order twice. A slow safety poll covers anything the timer could miss.
 */
import type { Clock, Timer } from '../clock.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Logger } from '../logger.ts';
import type { OrderService } from '../services/order-service.ts';

import type { Disposable } from './background.ts';

export interface HoldExpiryDeps {
  orders: Pick<OrderService, 'expireDue' | 'nextHoldEnd'>;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
  /** Re-check the database this often even when no event arrives (another instance's holds). */
  pollMs?: number;
}

export async function startHoldExpiry({ orders, clock, bus, logger, pollMs = 30_000 }: HoldExpiryDeps): Promise<Disposable> {
  let timer: Timer | null = null;
  let armedFor = Infinity;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  function arm(due: number) {
    if (stopped || due >= armedFor) return;
    timer?.cancel();
    armedFor = due;
    timer = clock.setTimer(Math.max(0, due - clock.now()), () => {
      armedFor = Infinity;
      timer = null;
      return sweep();
    });
  }

  function sweep(): Promise<void> {
    // Sweeps run one after another, never overlapping.
    running = running.then(async () => {
      if (stopped) return;
      try {
        await orders.expireDue();
        const next = await orders.nextHoldEnd();
        arm(Math.min(next ?? Infinity, clock.now() + pollMs));
      } catch (error) {
        logger.error('hold expiry sweep failed; retrying', { error });
        arm(clock.now() + 1000);
      }
    });
    return running;
  }

  const subscription = bus.subscribe('orderChanged');
  void (async () => {
    for await (const event of subscription) {
      if (event.change === 'created') arm(event.holdUntil);
    }
  })();

  await sweep(); // orders whose hold ended while the process was down
  return {
    async dispose() {
      stopped = true;
      timer?.cancel();
      await subscription.return?.();
      await running;
    },
  };
}
