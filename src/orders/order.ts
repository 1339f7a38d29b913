/**
 * The sleeve order and its state machine (document 1 §3, docs/ordering.md#moving-an-order-forward).
 */
export const ORDER_STATUSES = [
  'awaiting payment',
  'received',
  'in progress',
  'ready',
  'collected',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Document 1 §2: the constant reason of a hold that ran out. */
export const HOLD_EXPIRED_REASON = 'not paid within 5 minutes';

/** Document 1 §2: the constant label of the hosted payment. */
export const PAY_LABEL = 'Pay $1.00 - all payments will be refunded';
export const PAY_BUTTON_LABEL = 'Pay $1.00';

export const PAY_METHODS = ['card', 'vendor_card', 'wallet'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

export interface SleeveChoice {
  size: string;
  font: string;
  thread: string;
  stitchText: string;
}

export interface Order {
  orderNumber: string;
  name: string;
  email: string;
  choice: SleeveChoice;
  status: OrderStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  holdUntil: number;
  paidAt: number | null;
  paymentMethod: PayMethod | null;
  cancelledAt: number | null;
  cancelReason: string | null;
  /** When staff moved it to `ready` (the pickup board's order); null before. */
  readyAt: number | null;
  collectedAt: number | null;
  /** The collector's name as they gave it at pickup. */
  collectedBy: string | null;
  /** Increases by one on every change; subscribers use it to drop stale events. */
  version: number;
  updatedAt: number;
}

/** The staff path through the statuses after payment; steps may be skipped forward, never back. */
const FULFILMENT_PATH: readonly OrderStatus[] = ['received', 'in progress', 'ready', 'collected'];

/** Whether staff may move an order from `from` to `to` (docs/ordering.md#moving-an-order-forward: forward only, `collected` by collectOrder). */
export function canAdvance(from: OrderStatus, to: OrderStatus): boolean {
  const a = FULFILMENT_PATH.indexOf(from);
  const b = FULFILMENT_PATH.indexOf(to);
  return a >= 0 && b > a;
}

/** Staff may cancel any order that is not collected (and not already cancelled). */
export function canCancel(status: OrderStatus): boolean {
  return status !== 'collected' && status !== 'cancelled';
}

/** Whole seconds left in the hold, rounded down, never negative (docs/ordering.md#seconds-left). */
export function secondsLeft(holdUntil: number, now: number): number {
  return Math.max(0, Math.floor((holdUntil - now) / 1000));
}

/**
 * How long a card or wallet payment keeps its held order from being cancelled, from the moment it started
 * (docs/ordering.md#a-payment-at-the-end-of-the-hold). The same minute after which the payments area treats a
 * `pending` payment as having lost its caller: past it, the order ends and a late charge is refunded.
 */
export const PAYMENT_SETTLE_MS = 60_000;

/**
 * When a held order is cancelled: at the end of its hold or, while a payment started before that end is in flight,
 * once that payment has had PAYMENT_SETTLE_MS to settle — whichever is later.
 */
export function cancelDueAt(holdUntil: number, payingSince: number | null): number {
  return payingSince === null ? holdUntil : Math.max(holdUntil, payingSince + PAYMENT_SETTLE_MS);
}

/** The status a successful payment leads to (docs/ordering.md#status-after-payment). */
export const STATUS_AFTER_PAYMENT: OrderStatus = 'received';

/** Order numbers arrive as strings of digits (document 1 §4: pattern ^[0-9]+$). */
export function parseOrderNumber(value: string): number | null {
  if (!/^[0-9]{1,15}$/u.test(value)) return null;
  return Number(value);
}
