/**
 * Provisions network tokens that an upgrade with `networkToken.async: true` queued (CONTRACT §3: answers
 * `created: false`, then sends /token-updated when provisioned). Each sweep also reconciles the unknown payments of
 * sleeve orders that ended meanwhile and refunds what they charged (document 1: all payments will be refunded). Each is a row with a due time; the sweep marks it
 * conditionally (status = PENDING), so a restart or a second instance never provisions one twice. One timer, armed
 * for the earliest due row (re-armed when this instance queues an earlier one) and at most `PAYMENTS_POLL_MS` ahead.
 */
import type { Timer } from '../clock.ts';
import type { BackgroundJob } from './background.ts';

export const PAYMENTS_POLL_MS = 30_000;

export const startNetworkTokenProvisioning: BackgroundJob = async ({ services, clock, logger }) => {
  const tokens = services.payments.tokens;
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
    running = running.then(async () => {
      if (stopped) return;
      try {
        await tokens.provisionDue();
        await services.payments.reconcileEndedOrders();
        arm(Math.min((await tokens.nextProvisionDue()) ?? Infinity, clock.now() + PAYMENTS_POLL_MS));
      } catch (error) {
        logger.error('network token provisioning sweep failed; retrying', { error });
        arm(clock.now() + 1_000);
      }
    });
    return running;
  }

  const unwatch = tokens.onProvisionQueued(arm);
  await sweep(); // provisioning that fell due while the process was down
  return {
    async dispose() {
      stopped = true;
      unwatch();
      timer?.cancel();
      await running;
    },
  };
};
