/**
 * Completes pending 3DS enrollment requests when due (CONTRACT §3: PENDING, then COMPLETED or FAILED). Each request
 * is a row with a due time; a sweep claims each with a conditional update (status = PENDING), so a restart or a
 * second instance never completes one twice. One timer, armed for the earliest due row (re-armed when this
 * instance queues an earlier one) and at most `pollMs` ahead for rows other instances queued; a sweep runs at start.
 */
import type { Timer } from '../clock.ts';
import type { BackgroundJob } from './background.ts';

export const THREE_DS_POLL_MS = 30_000;

export const startThreeDsCompletion: BackgroundJob = async ({ services, clock, logger }) => {
  const platform = services.platform;
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
        await platform.completeDueEnrollments();
        const next = await platform.nextEnrollmentDue();
        arm(Math.min(next ?? Infinity, clock.now() + THREE_DS_POLL_MS));
      } catch (error) {
        logger.error('3DS enrollment sweep failed; retrying', { error });
        arm(clock.now() + 1_000);
      }
    });
    return running;
  }

  const unwatch = platform.onEnrollmentQueued(arm);
  await sweep(); // requests that fell due while the process was down
  return {
    async dispose() {
      stopped = true;
      unwatch();
      timer?.cancel();
      await running;
    },
  };
};
