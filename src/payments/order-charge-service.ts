/**
 * Card and wallet pay of a sleeve order (document 1 §3: $1.00 on the payUrl page; docs/ordering.md pay rules),
 * through the one pay flow. The token comes from the pay page: single-use and bound to this order. A declined card
 * leaves the order payable (402); a processor error or an unknown outcome is retryable (502), and a retry
 * reconciles the payment that may have charged before it tries anything new, so the order is never charged twice.
 * What paying changes in the order is the orders area's: it hands its `settle` in.
 */
import { DomainError } from '../kernel/errors.ts';
import { hashToken, randomId } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { Db } from '../db/database.ts';
import * as payments from './payment-repository.ts';
import * as vault from './vault-repository.ts';
import { STALE_PENDING_MS, type PaymentFlow } from './payment-flow-service.ts';

/** Document 1: the amount charged for the user's own card or wallet. */
export const ORDER_AMOUNT_CENTS = 100;

/** What the order's side of a succeeded charge sees of the payment. */
export interface OrderCharge {
  id: string;
  method: 'card' | 'wallet';
  amountCents: number;
}

/**
 * Runs in the transaction that records a succeeded charge: marks the order paid and returns it, or returns
 * undefined when the order could no longer take the payment (paid or ended meanwhile).
 */
export type SettleOrder<T> = (trx: Db, charge: OrderCharge) => Promise<T | undefined>;

export interface OrderCharges {
  /**
   * Charges a held order with a pay-page token. Returns what `settle` returned, or null when the order was paid (or
   * ended) meanwhile — read it again; a charge that could no longer pay it has been refunded.
   */
  chargeOrder<T>(orderNumber: number, method: 'card' | 'wallet', token: string, settle: SettleOrder<T>): Promise<T | null>;
  /**
   * Reconciles the unknown payments of orders no longer held (the hold ended, staff cancelled) and refunds what
   * they charged: no retry will come for them. Then gives back every charge still owed a refund (one that failed
   * at the processor, or was cut short by a crash). Returns how many payments it settled or refunded.
   */
  reconcileEndedOrders(): Promise<number>;
}

const TOKEN_INVALID = 'That payment token is not valid for this order. Open payUrl to pay by card or wallet.';

export function createOrderCharges(deps: ServiceDeps & { flow: PaymentFlow; refund(paymentId: string): Promise<unknown> }): OrderCharges {
  const { database, clock, logger, flow } = deps;
  const { db } = database;

  /** Reserve (tx): an earlier payment whose outcome is not known comes first; else the token is spent on a new one. */
  async function reserve(trx: Db, number: number, method: 'card' | 'wallet', token: string): Promise<payments.PaymentRow | null> {
    const now = clock.now();
    const open = await payments.orderPayments(trx, number, ['pending', 'unknown', 'succeeded']);
    if (open.some((p) => p.status === 'succeeded' && p.refunded_at === null)) return null;
    const pending = open.filter((p) => p.status === 'pending' || p.status === 'unknown');
    const stuck = pending.find((p) => p.status === 'unknown' || now - Number(p.updated_at) > STALE_PENDING_MS);
    if (stuck) return stuck;
    if (pending.length > 0) {
      throw new DomainError('unavailable', 'A payment for this order is being processed. Try again in a moment.', { retryAfter: 1 });
    }
    const tokenHash = hashToken(token);
    const row = await vault.findToken(trx, tokenHash);
    if (!row || row.kind !== method || row.order_number === null || Number(row.order_number) !== number) {
      throw new DomainError('bad_request', TOKEN_INVALID, { field: 'token' });
    }
    const id = randomId('pay_');
    if (!(await vault.reserveToken(trx, tokenHash, id, false))) {
      throw new DomainError('bad_request', 'That payment token was already used. Enter the card again on the payUrl page.', { field: 'token' });
    }
    await payments.insertPayment(trx, {
      id, site_id: null, order_id: String(number), order_number: number, amount: ORDER_AMOUNT_CENTS, currency: 'USD', method,
      status: 'pending', decision: 'APPROVE', token_hash: tokenHash, charge_id: null, refunded_at: null, created_at: now, updated_at: now,
    });
    return (await payments.findPayment(trx, id))!;
  }

  return {
    async chargeOrder(number, method, token, settle) {
      const recorded = await flow.run(
        (trx) => reserve(trx, number, method, token),
        (trx, row) => (row.status === 'succeeded' ? settle(trx, { id: row.id, method: row.method, amountCents: Number(row.amount) }) : Promise.resolve(undefined)),
      );
      if (!recorded) return null;
      const { row, settled } = recorded;
      if (row.status === 'succeeded') {
        if (settled !== undefined) return settled;
        // Charged, but the order had ended or been paid meanwhile: give the money back at once.
        logger.warn('charge could not pay the order; refunding', { orderNumber: number, paymentId: row.id });
        await deps.refund(row.id);
        return null;
      }
      if (row.status === 'declined') throw new DomainError('declined', 'The card was declined. Nothing was charged; try another card or the wallet.');
      if (row.status === 'failed') throw new DomainError('payment_error', 'The payment processor had an error. Nothing was charged; please try again.');
      throw new DomainError('payment_unknown', 'The payment processor did not confirm the payment. Try again: a retry never charges twice.');
    },

    async reconcileEndedOrders() {
      const stuck = await payments.unsettledOfEndedOrders(db, clock.now() - STALE_PENDING_MS, 100);
      let settled = 0;
      for (const payment of stuck) {
        const { row } = (await flow.run(async () => payment))!;
        if (row.status === 'succeeded') await deps.refund(row.id);
        if (row.status !== 'unknown') settled++;
      }
      for (const owed of await payments.owedRefunds(db, 100)) {
        try {
          await deps.refund(owed.id);
          settled++;
        } catch (error) {
          logger.error('refund failed; the next sweep tries again', { paymentId: owed.id, error });
        }
      }
      return settled;
    },
  };
}
