/**
 * A GraphQL context for running a `holdCountdown` document on the compiled plan without a gateway
 * (graphql-server/use-compiled-subscriptions.ts): the live service is the test's own, the rest fixed.
 */
import type { GraphQLContext } from '../../schema/context.ts';
import type { Order } from '../../src/orders/order.ts';

export const HOLD_NOW = Date.parse('2026-11-26T15:00:00Z');

/** An order as HoldTick reads it (only those fields: the rest of an order is not on this stream). */
export function heldOrder(status: Order['status']): Order {
  return { orderNumber: '1042', status, holdUntil: HOLD_NOW + 299_500 } as Order;
}

/** `live` stands in for the live service; `extra` adds to the context (a transport's writer, say). */
export function holdContext(live: object, extra: object = {}): GraphQLContext {
  return {
    services: { live } as never,
    viewer: { isStaff: false },
    clientAddress: '127.0.0.1',
    limiter: {} as never, // holdCountdown takes no count
    publicUrl: 'http://localhost',
    now: () => HOLD_NOW,
    ...extra,
  } as GraphQLContext;
}
