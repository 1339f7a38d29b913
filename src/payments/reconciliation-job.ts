/**
 * Runs the payments' reconciliation (reconciliation-service.ts): what no request will come back for. There is no due
 * row to wait for, so it runs at start and then every PAYMENTS_POLL_MS; each payment is claimed by a conditional
 * update and refunds are conditional on `refunded_at`, so two instances sweeping together settle each once.
 */
import type { BackgroundJob } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

export const PAYMENTS_POLL_MS = 30_000;

export const startPaymentReconciliation: BackgroundJob = ({ services, clock, logger }) =>
  startDueJob({
    clock,
    logger,
    name: 'payment reconciliation',
    pollMs: PAYMENTS_POLL_MS,
    async sweepOnce() {
      await services.payments.reconcileUnsettled();
      return null; // the poll alone sets the next sweep
    },
  });
