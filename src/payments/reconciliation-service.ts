/**
 * Settles what no caller will come back for (docs/platform.md#payments; document 1: all payments will be refunded),
 * through the one pay flow: a payment of POST /api/payments or of a sleeve order that is no longer held, whose outcome
 * is `unknown` or whose caller died between reserve and record (`pending` past STALE_PENDING_MS). Each is claimed by a
 * conditional update, so two instances sweeping together reconcile it once; the processor is asked again under the
 * payment's id (it never charges twice); the key that named it, if any, gets its answer. A sleeve order's charge found
 * this way paid nothing (the order ended without it) and is refunded. Then every refund still owed is made.
 */
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { Db } from '../db/database.ts';
import { STALE_PENDING_MS, type PaymentFlow } from './payment-flow-service.ts';
import * as payments from './payment-repository.ts';
import { createdBody, toPaymentView } from './payment-view.ts';

export interface Reconciliation {
  /** One sweep; returns how many payments it settled or refunded. */
  reconcileUnsettled(): Promise<number>;
}

const BATCH = 100;

export function createReconciliation(deps: ServiceDeps & { flow: PaymentFlow; refund(paymentId: string): Promise<unknown> }): Reconciliation {
  const { database, clock, logger, flow } = deps;
  const { db } = database;

  /** The answer a key that named this payment replays from now on (or `retryable` while still unknown). */
  async function settleKey(trx: Db, row: payments.PaymentRow): Promise<void> {
    const now = clock.now();
    if (row.status === 'unknown') return payments.settleKeyOfPayment(trx, row.id, { state: 'retryable', updated_at: now });
    const body = JSON.stringify(createdBody(toPaymentView(row)));
    await payments.settleKeyOfPayment(trx, row.id, { state: 'done', response_body: body, updated_at: now });
  }

  async function refundOwed(): Promise<number> {
    let refunded = 0;
    for (const owed of await payments.owedRefunds(db, BATCH)) {
      try {
        await deps.refund(owed.id);
        refunded++;
      } catch (error) {
        logger.error('refund failed; the next sweep tries again', { paymentId: owed.id, error });
      }
    }
    return refunded;
  }

  return {
    async reconcileUnsettled() {
      const now = clock.now();
      let settled = 0;
      for (const seen of await payments.unsettledPayments(db, now - STALE_PENDING_MS, BATCH)) {
        const recorded = await flow.run(async (trx) => (await payments.claimPayment(trx, seen, clock.now())) ?? null, settleKey);
        if (!recorded) continue; // another instance (or the payment's own retry) claimed it first
        const { row } = recorded;
        if (recorded.recordedElsewhere) continue; // its own caller came back first and settled it
        if (row.status === 'succeeded' && row.order_number !== null) await deps.refund(row.id);
        if (row.status !== 'unknown') settled++;
      }
      return settled + (await refundOwed());
    },
  };
}
