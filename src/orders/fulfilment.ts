/**
 * The staff side of an order's life (docs/ordering.md#moving-an-order-forward): advance forward, collect with a matching name, cancel with a
 * reason. Pure rules and their refusal texts; the service turns each into one conditional update.
 */
import { canAdvance, canCancel, ORDER_STATUSES, type OrderStatus } from './order.ts';
import { collectorMatches, NAME_MAX_LENGTH } from './person-name.ts';

export const CANCEL_REASON_MAX_LENGTH = 300;

/** A refusal: the message for staff and the input field it concerns (docs/ordering.md#400-or-422). */
export interface StaffRefusal {
  message: string;
  field?: string;
}

/**
 * The statuses `advanceOrder` may move an order from to reach `to`; empty when `to` cannot be reached that way.
 * `collected` is reached only by collectOrder, which checks the collector's name.
 */
export function advanceSources(to: OrderStatus): OrderStatus[] {
  if (to === 'collected') return [];
  return ORDER_STATUSES.filter((from) => canAdvance(from, to));
}

/** Why `from` → `to` is refused, or null when it is a forward move advanceOrder may make. */
export function advanceRefusal(orderNumber: string, from: OrderStatus, to: OrderStatus): StaffRefusal | null {
  if (advanceSources(to).includes(from)) return null;
  const field = 'status';
  if (to === 'collected') {
    return { field, message: 'An order is marked collected only by handing it over (collectOrder in GraphQL, collect_order for agents), with the name of the person collecting it.' };
  }
  if (from === 'awaiting payment') return { field, message: `Order ${orderNumber} is not paid yet; it can move forward only after payment.` };
  if (from === 'cancelled') return { field, message: `Order ${orderNumber} is cancelled and can no longer move.` };
  if (from === 'collected') return { field, message: `Order ${orderNumber} has already been collected.` };
  if (from === to) return { field, message: `Order ${orderNumber} is already ${to}.` };
  return { field, message: `Order ${orderNumber} is ${from}; orders move forward only (received → in progress → ready), never back to ${to}.` };
}

/** The collector's name as given: present, of a plausible length (the match itself is collectorRefusal's). */
export function collectorNameRefusal(collectorName: string): StaffRefusal | null {
  const field = 'collectorName';
  if (collectorName.trim().length === 0) return { field, message: "Give the collector's first and last name." };
  if (collectorName.length > NAME_MAX_LENGTH * 2) return { field, message: 'The collector name is too long.' };
  return null;
}

/** Why this collection is refused, or null: only a ready order, only by a matching first and last name. */
export function collectRefusal(
  order: { orderNumber: string; status: OrderStatus; name: string },
  collectorName: string,
): StaffRefusal | null {
  if (order.status !== 'ready') {
    return { message: `Order ${order.orderNumber} is ${order.status}, not ready; only a ready order can be collected.` };
  }
  if (!collectorMatches(order.name, collectorName)) {
    return {
      field: 'collectorName',
      message: `The collector's first and last name do not match the name on order ${order.orderNumber}; nothing was changed.`,
    };
  }
  return null;
}

export function cancelReasonRefusal(reason: string): StaffRefusal | null {
  const field = 'reason';
  if (reason.trim().length === 0) return { field, message: 'Give a reason for cancelling the order.' };
  if (reason.trim().length > CANCEL_REASON_MAX_LENGTH) {
    return { field, message: `The reason is longer than ${CANCEL_REASON_MAX_LENGTH} characters.` };
  }
  return null;
}

export function cancelRefusal(orderNumber: string, status: OrderStatus): StaffRefusal | null {
  if (canCancel(status)) return null;
  return status === 'collected'
    ? { message: `Order ${orderNumber} has been collected and can no longer be cancelled.` }
    : { message: `Order ${orderNumber} is already cancelled.` };
}
