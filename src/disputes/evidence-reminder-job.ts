/**
 * Evidence reminders (docs/notifications.md#evidence-reminders): every EVIDENCE_REMINDER_HOURS while a claim misses evidence and its due date
 * is ahead, and the move to EXPIRED once it has passed. Due-time work kept as rows (claims.next_reminder_at,
 * claims.due_at): one timer armed for the earliest, a sweep at start for whatever fell due while no instance ran,
 * conditional updates so a second instance never sends a reminder twice. The poll is shorter than the shortest
 * reminder period (EVIDENCE_REMINDER_HOURS ≥ 1), so a claim opened on any instance is seen before its first
 * reminder is due; from then on the timer is armed for it exactly.
 */
import type { BackgroundJob } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

const POLL_MS = 15 * 60_000;

export const startEvidenceReminders: BackgroundJob = ({ services, clock, logger }) => {
  const claims = services.disputes.claims;
  return startDueJob({ clock, logger, name: 'evidence reminder', pollMs: POLL_MS, sweepOnce: () => claims.runDue() });
};
