/** Order rows to domain orders: the one place that knows the column names of an order. */
import type { Order, OrderStatus, PayMethod } from './order.ts';
import type { OrderRow } from './order-tables.ts';
import type { OrderChange, OrderChangedEvent } from './order-events.ts';

export function rowToOrder(row: OrderRow): Order {
  return {
    orderNumber: String(row.order_number),
    name: row.name,
    email: row.email,
    choice: { size: row.size, font: row.font, thread: row.thread, stitchText: row.stitch_text },
    status: row.status as OrderStatus,
    createdAt: Number(row.created_at),
    holdUntil: Number(row.hold_until),
    paidAt: row.paid_at == null ? null : Number(row.paid_at),
    paymentMethod: (row.payment_method as PayMethod | null) ?? null,
    cancelledAt: row.cancelled_at == null ? null : Number(row.cancelled_at),
    cancelReason: row.cancel_reason,
    readyAt: row.ready_at == null ? null : Number(row.ready_at),
    collectedAt: row.collected_at == null ? null : Number(row.collected_at),
    collectedBy: row.collected_by ?? null,
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
  };
}

export function orderEvent(order: Order, change: OrderChange): OrderChangedEvent {
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    version: order.version,
    change,
    holdUntil: order.holdUntil,
  };
}

/** Order numbers arrive as strings of digits (document 1 §4: pattern ^[0-9]+$). */
export function parseOrderNumber(value: string): number | null {
  if (!/^[0-9]{1,15}$/u.test(value)) return null;
  return Number(value);
}
