/**
 * Settles what no request will come back for (document 1: all payments will be refunded): the unknown payments of
 * sleeve orders that ended meanwhile, refunding what they charged, and every refund still owed (one that failed at
 * the processor or was cut short by a crash). There is no due row to wait for, so it runs at start and then every
 * PAYMENTS_POLL_MS; refunds are conditional on `refunded_at` and the processor refunds a charge once, so two
 * instances sweeping together give back each charge once.
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
      await services.payments.reconcileEndedOrders();
      return null; // the poll alone sets the next sweep
    },
  });
