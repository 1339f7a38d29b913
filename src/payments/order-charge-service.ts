/**
 * Card and wallet pay of a sleeve order (document 1 §3: $1.00 on the payUrl page; docs/ordering.md pay rules),
 * through the one pay flow. The token comes from the pay page: single-use and bound to this order. A declined card
 * leaves the order payable (402); a processor error or an unknown outcome is retryable (502), and a retry
 * reconciles the payment that may have charged before it tries anything new, so the order is never charged twice.
 * What paying changes in the order is the orders area's: it hands its `settle` in.
 */
import { DomainError } from '../kernel/errors.ts';
import { hashToken, timeOrderedId } from '../kernel/tokens.ts';
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
  /** When the payment started (was reserved): a payment started before the hold ended may pay the order. */
  startedAt: number;
}

/**
 * What the orders area does, inside the payment's own transactions, as a charge of one of its orders goes (its rules:
 * docs/ordering.md#a-payment-at-the-end-of-the-hold).
 */
export interface OrderSide<T> {
  /** In the reserve transaction, before a new payment is reserved: false when the order can no longer take one. */
  begin(trx: Db, startedAt: number): Promise<boolean>;
  /** In the record transaction of a succeeded charge: the order paid, or undefined when it was paid or ended meanwhile. */
  settle(trx: Db, charge: OrderCharge): Promise<T | undefined>;
  /** In the record transaction of a charge that took no money (declined, or the processor's error). */
  release(trx: Db): Promise<void>;
}

export interface OrderCharges {
  /**
   * Charges a held order with a pay-page token. Returns what `side.settle` returned, or null when the order was paid
   * or ended meanwhile (or its hold ended before the payment could start) — read it again; a charge that could no
   * longer pay it has been refunded.
   */
  chargeOrder<T>(orderNumber: number, method: 'card' | 'wallet', token: string, side: OrderSide<T>): Promise<T | null>;
}

const beingProcessed = () => new DomainError('unavailable', 'A payment for this order is being processed. Try again in a moment.', { retryAfter: 1 });
const TOKEN_INVALID = 'That payment token is not valid for this order. Open payUrl to pay by card or wallet.';

export function createOrderCharges(deps: ServiceDeps & { flow: PaymentFlow; refund(paymentId: string): Promise<unknown> }): OrderCharges {
  const { clock, logger, flow } = deps;

  /**
   * At most RATE_LIMIT_SUBJECT_WRITE charges of one order in a window, whichever payTokens asked (docs/edge.md#card-testing).
   * The limiter's count per order and payToken cannot hold it: a re-sent create hands out a fresh payToken for a
   * held order, and a script trying stolen cards on it collected a token per few declines. Counted here, under the
   * order's pay lock, only what holders of a valid token started, so no stranger can spend an owner's charges.
   * RATE_LIMITS=off turns it off with every other limit.
   */
  function refuseCardTesting(ofOrder: readonly payments.PaymentRow[], now: number): void {
    const { enabled, subjectWrite, windowMs } = deps.config.rateLimits;
    if (!enabled) return;
    // Newest first: the window's charges are a prefix of the order's payments.
    const started = ofOrder.map((p) => Number(p.created_at)).filter((at) => at > now - windowMs);
    if (started.length < subjectWrite) return;
    // The window slides: a charge is free again once enough of those in it have left.
    const freeAt = started[subjectWrite - 1]! + windowMs;
    const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
    throw new DomainError('rate_limited', 'Too many payments were tried for this order. Wait a moment, then try again.', { retryAfter });
  }

  /** Reserve (tx): an earlier payment whose outcome is not known comes first; else the token is spent on a new one. */
  async function reserve<T>(trx: Db, number: number, method: 'card' | 'wallet', token: string, side: OrderSide<T>): Promise<payments.PaymentRow | null> {
    // SQLite's one connection runs transactions one at a time already; PostgreSQL's take turns per order here.
    if (deps.database.caps.multipleConnections) await payments.lockOrderPays(trx, number);
    const now = clock.now();
    // Every payment of the order, read once: those still open, and those the card-testing count weighs.
    const ofOrder = await payments.orderPayments(trx, number);
    const open = ofOrder.filter((p) => p.status === 'pending' || p.status === 'unknown' || p.status === 'succeeded');
    if (open.some((p) => p.status === 'succeeded' && p.refunded_at === null)) return null;
    const pending = open.filter((p) => p.status === 'pending' || p.status === 'unknown');
    const stuck = pending.find((p) => p.status === 'unknown' || now - Number(p.updated_at) > STALE_PENDING_MS);
    // Claimed by a conditional update: of two retries (on any instance) one reconciles the stuck payment, the other
    // sees it in flight. Returned unclaimed to both, the loser recorded the same charge again and refunded it as one
    // that "paid no order" — the order's only charge.
    const claimed = stuck && (await payments.claimPayment(trx, stuck, now));
    if (claimed) return claimed;
    if (pending.length > 0) throw beingProcessed();
    refuseCardTesting(ofOrder, now);
    const tokenHash = hashToken(token);
    const row = await vault.findToken(trx, tokenHash);
    if (!row || row.kind !== method || row.order_number === null || Number(row.order_number) !== number) {
      throw new DomainError('bad_request', TOKEN_INVALID, { field: 'token' });
    }
    // The hold ended since the order was read: no payment starts, and the token stays unspent.
    if (!(await side.begin(trx, now))) return null;
    const id = timeOrderedId('pay_');
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
    async chargeOrder(number, method, token, side) {
      const recorded = await flow.run(
        (trx) => reserve(trx, number, method, token, side),
        async (trx, row) => {
          if (row.status === 'succeeded') return side.settle(trx, { id: row.id, method: row.method, amountCents: Number(row.amount), startedAt: Number(row.created_at) });
          if (row.status === 'declined' || row.status === 'failed') await side.release(trx);
          return undefined;
        },
      );
      if (!recorded) return null;
      const { row, settled } = recorded;
      // A retry settled this payment while this caller was stalled: the order is as it left it; read it again.
      if (recorded.recordedElsewhere && row.status === 'succeeded') return null;
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
  };
}
