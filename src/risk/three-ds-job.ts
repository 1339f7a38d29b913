/**
 * Completes pending 3DS enrollment requests when due (docs/platform.md#3ds-enrollment: PENDING, then COMPLETED or FAILED). Each request
 * is a row with a due time, completed by a conditional update (status = PENDING); the timer is armed for the
 * earliest row, sooner when this instance queues an earlier one, and a sweep runs at start (due-sweeper.ts).
 */
import type { BackgroundJob } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

export const THREE_DS_POLL_MS = 30_000;

export const startThreeDsCompletion: BackgroundJob = ({ services, clock, logger }) => {
  const platform = services.platform;
  return startDueJob({
    clock,
    logger,
    name: '3DS enrollment',
    pollMs: THREE_DS_POLL_MS,
    async sweepOnce() {
      await platform.completeDueEnrollments();
      return platform.nextEnrollmentDue();
    },
    watch: (arm) => platform.onEnrollmentQueued(arm),
  });
};
