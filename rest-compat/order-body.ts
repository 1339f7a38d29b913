/** Document 1 §2's Order and PayResult bodies, field for field, from the domain view. */
import type { OrderView, PayResultView } from '../src/orders/order-view.ts';

export function orderBody(view: OrderView): Record<string, unknown> {
  return {
    ok: true,
    duplicate: false,
    orderNumber: view.orderNumber,
    status: view.status,
    ...(view.hold ?? {}),
    ...(view.reason ? { reason: view.reason } : {}),
    order: view.order,
    message: view.message,
    nextAction: view.nextAction,
  };
}

export function payResultBody(result: PayResultView): Record<string, unknown> {
  return {
    ok: true,
    orderNumber: result.view.orderNumber,
    status: result.view.status,
    alreadyPaid: result.alreadyPaid,
    message: result.message,
    nextAction: result.nextAction,
  };
}
