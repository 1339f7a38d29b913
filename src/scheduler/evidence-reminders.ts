/**
 * Evidence reminders (CONTRACT §4): every EVIDENCE_REMINDER_HOURS while a claim misses evidence and its due date
 * is ahead, and the move to EXPIRED once it has passed. Due-time work kept as rows (claims.next_reminder_at,
 * claims.due_at): one timer armed for the earliest, a sweep at start for whatever fell due while no instance ran,
 * conditional updates so a second instance never sends a reminder twice. The poll is shorter than the shortest
 * reminder period (EVIDENCE_REMINDER_HOURS ≥ 1), so a claim opened on any instance is seen before its first
 * reminder is due; from then on the timer is armed for it exactly.
 */
import type { Timer } from '../clock.ts';
import type { BackgroundJob } from './background.ts';

const POLL_MS = 15 * 60_000;

export const startEvidenceReminders: BackgroundJob = async ({ services, clock, logger }) => {
  const claims = services.notifications.claims;
  let timer: Timer | null = null;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  function arm(due: number): void {
    if (stopped) return;
    timer?.cancel();
    timer = clock.setTimer(Math.max(0, due - clock.now()), sweep);
  }

  function sweep(): Promise<void> {
    // Sweeps run one after another, never overlapping.
    running = running.then(async () => {
      if (stopped) return;
      try {
        const next = await claims.runDue();
        arm(Math.min(next ?? Infinity, clock.now() + POLL_MS));
      } catch (error) {
        logger.error('evidence reminder sweep failed; retrying', { error });
        arm(clock.now() + 1_000);
      }
    });
    return running;
  }

  await sweep();
  return {
    async dispose() {
      stopped = true;
      timer?.cancel();
      await running;
    },
  };
};
