/**
 * The outbox dispatcher (issue 7): claims due rows with a lease, signs and POSTs them to MERCHANT_ENDPOINT, records
 * every attempt, retries on NOTIFY_RETRY_SCHEDULE. STUB: the notifications issue replaces this file.
 */
import type { BackgroundJob } from '../scheduler/background.ts';

export const startDispatcher: BackgroundJob = async () => ({ dispose: async () => {} });
