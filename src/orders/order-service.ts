/**
 * The sleeve order use cases of document 1: create, look up, pay, and the hold that ends unpaid orders.
 * Each change is one transaction; its event is published after commit.
 */
import { DomainError } from '../kernel/errors.ts';
import { emailKey } from '../kernel/email.ts';
import { cancelDueAt, HOLD_EXPIRED_REASON, STATUS_AFTER_PAYMENT, type Order, type PayMethod } from './order.ts';
import { checkOrderInput, type OrderInput, type PayInput } from './order-input.ts';
import { storedName } from './person-name.ts';
import { viewOrder, viewPayResult, type OrderView, type PayResultView, type ViewOptions } from './order-view.ts';
import { DuplicateOrderError } from './duplicate-order.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import * as orders from './order-repository.ts';
import * as holds from './hold-repository.ts';
import { hashToken, randomToken, timeOrderedId, tokenMatchesHash } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { OptionsService } from './options-service.ts';
import type { OrderCharges } from '../payments/order-charge-service.ts';
import { orderEvent } from './order-events.ts';
import type { OrderRow } from './order-tables.ts';
import { parseOrderNumber } from './order.ts';
import { transaction } from '../db/transaction.ts';

export interface CreatedOrder {
  order: Order;
  payToken: string;
}

export interface PaidOrder {
  order: Order;
  alreadyPaid: boolean;
}

export interface OrderService {
  create(input: OrderInput): Promise<CreatedOrder>;
  /**
   * Throws what `create` would refuse this input with now (a rule, the options, a duplicate with its hold fields),
   * creating nothing: a door that asks the user to confirm first never asks about an order that would be refused.
   */
  checkCreate(input: OrderInput): Promise<void>;
  /** The order, when the token is one of its payTokens; otherwise not_found, exactly as for no order. */
  lookup(orderNumber: string, payToken: string): Promise<Order>;
  pay(orderNumber: string, input: PayInput): Promise<PaidOrder>;
  /** Cancels every order whose hold has ended; returns them. */
  expireDue(): Promise<Order[]>;
  /** Whether an order not cancelled holds this email (compared as document 1 compares emails). */
  holdsEmail(email: string): Promise<boolean>;
  /** The earliest running hold, for the expiry timer. */
  nextHoldEnd(): Promise<number | null>;
  /** Document 1's Order resource as both doors show it; see ViewOptions for the two tokens. */
  view(order: Order, tokens?: Pick<ViewOptions, 'payToken' | 'presentedToken'>): OrderView;
  /** Document 1's PayResult as both doors show it. */
  viewPayment(paid: PaidOrder): PayResultView;
}

const NOT_FOUND = 'No order was found with that order number and payToken.';

/** Duplicate tokens an order keeps besides the create's own: five tokens at most (docs/ordering.md#pay-tokens-on-a-duplicate). */
const KEPT_DUPLICATE_TOKENS = 4;

export function createOrderService(deps: ServiceDeps & { options: OptionsService; payments: Pick<OrderCharges, 'chargeOrder'> }): OrderService {
  const { database, clock, bus, logger, options } = deps;
  const { db } = database;

  function publish(changed: Order[], change: Parameters<typeof orderEvent>[1]) {
    for (const order of changed) {
      const event = orderEvent(order, change);
      bus.publish('orderChanged', event);
      bus.publish('order', order.orderNumber, event);
    }
  }

  /**
   * A fresh token for a duplicate's answer (document 1 §2 Error.duplicate). Tokens are stored only as hashes, so an
   * earlier one cannot be answered again; each duplicate adds one, and in the same transaction the order's
   * duplicate tokens beyond the latest KEPT_DUPLICATE_TOKENS are deleted, so a retrying client cannot grow the table
   * without bound. The create's token is never rotated out (docs/ordering.md#pay-tokens-on-a-duplicate).
   */
  async function issueDuplicateToken(orderNumber: number): Promise<string> {
    const token = randomToken();
    const hash = hashToken(token);
    await transaction(db, async (trx) => {
      // Several connections: issues for one order take turns, or each would rotate without seeing the other's token.
      if (database.caps.multipleConnections) await orders.lockOrder(trx, orderNumber);
      await orders.insertPayToken(trx, orderNumber, hash, clock.now(), 'duplicate');
      await orders.rotateDuplicateTokens(trx, orderNumber, hash, KEPT_DUPLICATE_TOKENS - 1);
    });
    return token;
  }

  /**
   * The order `payToken` opens, read with `executor` (the database, or the paying transaction); a hold that has ended
   * is ended there too, and `expired` says so, for the caller to publish once that is committed.
   */
  async function readAuthorized(executor: Db, orderNumber: string, payToken: string): Promise<{ order: Order; expired: boolean }> {
    const number = parseOrderNumber(orderNumber);
    if (number === null || payToken.length === 0 || payToken.length > 200) throw new DomainError('not_found', NOT_FOUND);
    const [row, hashes] = await Promise.all([orders.findOrder(executor, number), orders.payTokenHashes(executor, number)]);
    // Compare against every token of the order in constant time; no early exit on the first match.
    let match = false;
    for (const hash of hashes) match = tokenMatchesHash(payToken, hash) || match;
    if (!row || !match) throw new DomainError('not_found', NOT_FOUND);
    const order = orders.rowToOrder(row);
    if (order.status !== 'awaiting payment' || order.holdUntil > clock.now()) return { order, expired: false };
    const [ended] = await holds.expireHolds(executor, clock.now(), HOLD_EXPIRED_REASON, number);
    if (ended) return { order: orders.rowToOrder(ended), expired: true };
    return { order: orders.rowToOrder((await orders.findOrder(executor, number))!), expired: false };
  }

  /** Loads an order the caller holds a token for; a hold that has ended is cancelled first. */
  async function authorized(orderNumber: string, payToken: string): Promise<Order> {
    const { order, expired } = await readAuthorized(db, orderNumber, payToken);
    if (expired) publish([order], 'expired');
    return order;
  }

  async function duplicateOf(key: string, justRead?: OrderRow): Promise<DuplicateOrderError> {
    const row = justRead ?? (await orders.findOrderByEmailKey(db, key));
    if (!row) {
      // The other order was cancelled between our insert and this read: the email is free again.
      throw new DomainError('unavailable', 'The order could not be placed just now. Please try again.', { retryAfter: 1 });
    }
    const existing = orders.rowToOrder(row);
    const held = existing.status === 'awaiting payment' && existing.holdUntil > clock.now();
    if (!held) return new DuplicateOrderError(existing, undefined);
    const payToken = await issueDuplicateToken(Number(row.order_number));
    return new DuplicateOrderError(existing, payToken, viewOrder(existing, { now: clock.now(), publicUrl: deps.publicUrl, payToken }));
  }

  /** The email belongs to an order: a held order whose hold has just ended is ended and the create tried again. */
  async function refuseDuplicate(key: string, input: OrderInput): Promise<CreatedOrder> {
    // It still owns the email until the sweep runs; end it now.
    const expired = await holds.expireHolds(db, clock.now(), HOLD_EXPIRED_REASON);
    publish(expired.map(orders.rowToOrder), 'expired');
    if (expired.some((r) => emailKey(r.email) === key)) return create(input);
    throw await duplicateOf(key);
  }

  async function create(input: OrderInput): Promise<CreatedOrder> {
      checkOrderInput(input, await options.current());
      const now = clock.now();
      const key = emailKey(input.email);
      const payToken = randomToken();
      // With several connections (PostgreSQL) the number is taken in a statement of its own, so the counter row is
      // locked for that statement alone: taken inside the creating transaction, its lock serialized every create
      // across every instance (measured: nearly every backend waiting on it under load). A known duplicate is
      // refused before a number is taken; only a lost race for one email leaves a gap, and numbers still only
      // increase and are never reused (docs/ordering.md#order-numbers). One connection (SQLite) has no one to block: no gap ever.
      let taken: number | null = null;
      if (database.caps.multipleConnections) {
        if (await orders.findOrderByEmailKey(db, key)) return refuseDuplicate(key, input);
        taken = await orders.nextOrderNumber(db);
      }
      let created: Order;
      try {
        created = await transaction(db, async (trx) => {
          const number = taken ?? (await orders.nextOrderNumber(trx));
          const row = await orders.insertOrder(trx, {
            order_number: number,
            email: input.email.trim(),
            email_key: key,
            name: storedName(input.name),
            size: input.size,
            font: input.font,
            thread: input.thread,
            stitch_text: input.stitchText,
            status: 'awaiting payment',
            hold_until: now + deps.holdSeconds * 1000,
            created_at: now,
            updated_at: now,
            paid_at: null,
            payment_method: null,
            cancelled_at: null,
            cancel_reason: null,
          });
          await orders.insertPayToken(trx, number, hashToken(payToken), now, 'create');
          return orders.rowToOrder(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, { index: 'orders_email_key_unique', column: 'orders.email_key' })) return refuseDuplicate(key, input);
        throw error;
      }
      logger.info('order created', { orderNumber: created.orderNumber });
      publish([created], 'created');
      return { order: created, payToken };
  }

  /**
   * In the paying transaction: the held order becomes paid by a payment that started before its hold ended, and
   * records that payment; or nothing changes.
   */
  async function markPaid(trx: Db, number: number, payment: { id: string; method: PayMethod; amountCents: number; startedAt: number }): Promise<Order | undefined> {
    const now = clock.now();
    const row = await orders.markPaid(trx, number, { status: STATUS_AFTER_PAYMENT, method: payment.method, startedAt: payment.startedAt, now });
    if (!row) return undefined;
    await orders.insertOrderPayment(trx, { id: payment.id, orderNumber: number, method: payment.method, amountCents: payment.amountCents, now });
    return orders.rowToOrder(row);
  }

  /**
   * The demo card: the order read, checked and marked paid in one transaction, whose answer waits for one COMMIT.
   * Read before it, as for a charge, the reads joined a batch of group commit (src/db/group-commit.ts) of their own,
   * and each payment waited for two.
   */
  async function payWithDemoCard(orderNumber: string, payToken: string): Promise<{ order: Order; paid?: Order }> {
    const { order, expired, paid } = await transaction(db, async (trx): Promise<{ order: Order; expired: boolean; paid?: Order }> => {
      const read = await readAuthorized(trx, orderNumber, payToken);
      if (read.order.status !== 'awaiting payment') return read;
      // The demo card charges nothing; the row records that this order was paid, once.
      const payment = { id: timeOrderedId('pay_'), method: 'vendor_card' as const, amountCents: 0, startedAt: clock.now() };
      return { ...read, paid: await markPaid(trx, Number(read.order.orderNumber), payment) };
    });
    if (expired) publish([order], 'expired');
    return { order, paid };
  }

  /**
   * Card and wallet: $1.00 through the one pay flow with the payUrl page's token; the order is marked paid in the
   * transaction that records the charge. No `paid`: paid or ended meanwhile (a late charge was refunded). A payment
   * started before the hold's end pays it even when the processor answers after (docs/ordering.md#a-payment-at-the-end-of-the-hold).
   */
  async function payWithCharge(orderNumber: string, payToken: string, method: 'card' | 'wallet', token: string): Promise<{ order: Order; paid?: Order }> {
    const order = await authorized(orderNumber, payToken);
    if (order.status !== 'awaiting payment') return { order };
    const number = Number(order.orderNumber);
    try {
      const paid = await deps.payments.chargeOrder(number, method, token, {
        begin: (trx, startedAt) => holds.startPaying(trx, number, startedAt),
        settle: (trx, charge) => markPaid(trx, number, charge),
        release: (trx) => holds.stopPaying(trx, number),
      });
      return { order, paid: paid ?? undefined };
    } catch (error) {
      // A payment that took nothing and ended after the hold: the order ends now, not at the sweep's next turn.
      const [ended] = error instanceof DomainError ? await holds.expireHolds(db, clock.now(), HOLD_EXPIRED_REASON, number) : [];
      if (!ended) throw error;
      const cancelled = orders.rowToOrder(ended);
      publish([cancelled], 'expired');
      return { order: cancelled };
    }
  }

  async function pay(orderNumber: string, input: PayInput, attempt = 1): Promise<PaidOrder> {
      const { order, paid } =
        input.method === 'vendor_card' ? await payWithDemoCard(orderNumber, input.t) : await payWithCharge(orderNumber, input.t, input.method, input.token ?? '');
      if (order.status === 'cancelled') {
        // The next step in the sentence itself: every door shows `error`, and the email is free again.
        throw new DomainError('cancelled', `Order ${order.orderNumber} is cancelled and can no longer be paid. To still get a sleeve, place a new order (the same email may be used).`, {
          ...(order.cancelReason === HOLD_EXPIRED_REASON ? { reason: HOLD_EXPIRED_REASON } : {}),
        });
      }
      if (order.status !== 'awaiting payment') return { order, alreadyPaid: true };
      if (paid) {
        logger.info('order paid', { orderNumber: paid.orderNumber, method: input.method });
        publish([paid], 'paid');
        return { order: paid, alreadyPaid: false };
      }
      // Another request won the race, or the hold ended this instant: report what happened.
      if (attempt > 3) throw new DomainError('unavailable', 'The payment could not be recorded just now. Please try again.', { retryAfter: 1 });
      return pay(orderNumber, input, attempt + 1);
  }

  return {
    create,
    lookup: authorized,
    pay,
    async expireDue() {
      const rows = await holds.expireHolds(db, clock.now(), HOLD_EXPIRED_REASON);
      const expired = rows.map(orders.rowToOrder);
      if (expired.length > 0) logger.info('holds ended', { orders: expired.map((o) => o.orderNumber) });
      publish(expired, 'expired');
      return expired;
    },

    nextHoldEnd: () => holds.nextHoldEnd(db),

    async checkCreate(input) {
      checkOrderInput(input, await options.current());
      const key = emailKey(input.email);
      const row = await orders.findOrderByEmailKey(db, key);
      if (!row) return;
      // A hold that has ended frees the email: create ends it first (refuseDuplicate).
      if (row.status === 'awaiting payment' && cancelDueAt(Number(row.hold_until), row.paying_since == null ? null : Number(row.paying_since)) <= clock.now()) return;
      throw await duplicateOf(key, row);
    },

    async holdsEmail(email) {
      return (await orders.findOrderByEmailKey(db, emailKey(email))) !== undefined;
    },

    view(order, tokens = {}) {
      return viewOrder(order, { now: clock.now(), publicUrl: deps.publicUrl, ...tokens });
    },

    viewPayment({ order, alreadyPaid }) {
      return viewPayResult(viewOrder(order, { now: clock.now(), publicUrl: deps.publicUrl }), alreadyPaid);
    },
  };
}
