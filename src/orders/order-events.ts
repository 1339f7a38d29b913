/**
 * What the orders area announces on the event bus (src/events/topics.ts joins every area's events into one map).
 * Events carry ids and a version, not whole objects: a subscriber reloads current state, so a late or repeated
 * event can never show something stale.
 */
import type { Order, OrderStatus } from './order.ts';

export type OrderChange = 'created' | 'paid' | 'expired' | 'advanced' | 'collected' | 'cancelled';

export interface OrderChangedEvent {
  orderNumber: string;
  status: OrderStatus;
  version: number;
  change: OrderChange;
  holdUntil: number;
}

export interface OptionsChangedEvent {
  version: number;
}

/** The event announcing `change` of an order, after its transaction committed. */
export function orderEvent(order: Order, change: OrderChange): OrderChangedEvent {
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    version: order.version,
    change,
    holdUntil: order.holdUntil,
  };
}
