/** Evidence reminders every EVIDENCE_REMINDER_HOURS while a claim misses evidence (issue 7). STUB. */
import type { BackgroundJob } from './background.ts';

export const startEvidenceReminders: BackgroundJob = async () => ({ dispose: async () => {} });
