/**
 * The Order resource of document 1 §2 as both doors show it. Hold fields appear only while the order
 * awaits payment; the payToken only where the caller just received it (creation, a duplicate).
 */
import {
  HOLD_EXPIRED_REASON,
  PAY_BUTTON_LABEL,
  PAY_LABEL,
  secondsLeft,
  type Order,
  type OrderStatus,
} from './order.ts';
import { holdUntilText, orderTexts } from './order-texts.ts';
import { previewImageUrl } from './options-view.ts';

export interface HoldFields {
  holdUntil: string;
  holdUntilText: string;
  secondsLeft: number;
  payUrl: string;
  payToken?: string;
  payLabel: string;
  payButtonLabel: string;
}

export interface OrderView {
  orderNumber: string;
  status: OrderStatus;
  hold: HoldFields | null;
  reason: string | null;
  order: { size: string; font: string; thread: string; stitchText: string; status: OrderStatus };
  /** What will be stitched, as an SVG address at PUBLIC_URL (no token in it): docs/ordering.md#the-preview-image. */
  previewImage: string;
  message: string;
  nextAction: string;
  /**
   * Staff-only facts, for the GraphQL fields that require the staff scope. The REST bodies (rest-compat/order-body.ts)
   * pick their fields one by one and never show these; no other caller may serialize a view whole.
   */
  staff?: StaffOrderFields;
}

export type StaffOrderFields = Pick<
  Order,
  | 'name'
  | 'email'
  | 'createdAt'
  | 'paidAt'
  | 'paymentMethod'
  | 'updatedAt'
  | 'version'
  | 'cancelReason'
  | 'cancelledAt'
  | 'readyAt'
  | 'collectedAt'
  | 'collectedBy'
>;

export interface ViewOptions {
  now: number;
  publicUrl: string;
  /** Shown as `payToken` only to the caller that just created the order (or hit its duplicate). */
  payToken?: string;
  /** The token the caller presented (a lookup): it goes into payUrl, not into a `payToken` field. */
  presentedToken?: string;
}

export function payUrl(publicUrl: string, orderNumber: string, payToken?: string): string {
  const base = `${publicUrl}/pay/${orderNumber}`;
  return payToken ? `${base}?t=${encodeURIComponent(payToken)}` : base;
}

export function viewOrder(order: Order, { now, publicUrl, payToken, presentedToken }: ViewOptions): OrderView {
  const held = order.status === 'awaiting payment';
  const texts = orderTexts(order, now);
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    hold: held
      ? {
          holdUntil: new Date(order.holdUntil).toISOString(),
          holdUntilText: holdUntilText(order.holdUntil, now),
          secondsLeft: secondsLeft(order.holdUntil, now),
          payUrl: payUrl(publicUrl, order.orderNumber, payToken ?? presentedToken),
          ...(payToken ? { payToken } : {}),
          payLabel: PAY_LABEL,
          payButtonLabel: PAY_BUTTON_LABEL,
        }
      : null,
    reason: order.status === 'cancelled' && order.cancelReason === HOLD_EXPIRED_REASON ? HOLD_EXPIRED_REASON : null,
    order: { ...order.choice, status: order.status },
    previewImage: previewImageUrl(publicUrl, order.choice),
    message: texts.message,
    nextAction: texts.nextAction,
    // The order itself, not a copy: a view is built on every request and the staff fields are read rarely.
    staff: order,
  };
}

/** Document 1's PayResult: the order's texts, prefixed when an earlier attempt had already paid. */
export interface PayResultView {
  view: OrderView;
  alreadyPaid: boolean;
  message: string;
  nextAction: string;
}

export function viewPayResult(view: OrderView, alreadyPaid: boolean): PayResultView {
  return {
    view,
    alreadyPaid,
    message: alreadyPaid ? `Order ${view.orderNumber} was already paid; nothing more was charged. ${view.message}` : view.message,
    nextAction: alreadyPaid ? `Do not pay again. ${view.nextAction}` : view.nextAction,
  };
}
