/**
 * Subscription root fields (docs/graphql.md#root-fields). Thin: the streams live in src/orders/live-service.ts; here each
 * event becomes the view both doors use. The "Subscriptions" section of README.md describes each stream.
 */
import { viewOptions } from '../../src/orders/options-view.ts';
import type { Order } from '../../src/orders/order.ts';
import type { SleeveOptionSet } from '../../src/orders/sleeve-options.ts';
import type { HoldTickEvent, PickupBoardEvent } from '../../src/orders/live-service.ts';
import { openedOrCounted } from '../../src/kernel/token-guesses.ts';
import { builder } from '../builder.ts';
import { HoldTickRef } from '../types/live.ts';
import { OrderRef, SleeveOptionsRef } from '../types/order.ts';
import { PickupBoardEventRef } from '../types/pickup.ts';

const orderArgs = (t: Parameters<Parameters<typeof builder.subscriptionField>[1]>[0]) => ({
  orderNumber: t.arg.id({ required: true, description: 'The order number createOrder answered.' }),
  payToken: t.arg.string({ required: true, description: 'The payToken createOrder answered.' }),
});

builder.subscriptionField('holdCountdown', (t) =>
  t.field({
    type: HoldTickRef,
    description: 'The hold of one order, live: now, each second, and a final event; then the stream completes.',
    args: orderArgs(t),
    // A token that opens nothing counts against the address as a wrong lookup does (docs/edge.md#wrong-tokens).
    subscribe: (_root, { orderNumber, payToken }, { services, limiter, clientAddress }) =>
      openedOrCounted(limiter, 'lookup', clientAddress, () => services.live.holdCountdown(String(orderNumber), payToken)),
    resolve: (event: HoldTickEvent) => event,
  }),
);

builder.subscriptionField('orderUpdates', (t) =>
  t.field({
    type: OrderRef,
    description: 'One order, live: its current state at once, then after every change.',
    args: orderArgs(t),
    subscribe: (_root, { orderNumber, payToken }, { services, limiter, clientAddress }) =>
      openedOrCounted(limiter, 'lookup', clientAddress, () => services.live.orderUpdates(String(orderNumber), payToken)),
    resolve: (order: Order, { payToken }, { services }) => services.orders.view(order, { presentedToken: payToken }),
  }),
);

builder.subscriptionField('sleeveOptionsChanged', (t) =>
  t.field({
    type: SleeveOptionsRef,
    description: 'The options offered now, at once and whenever staff change them.',
    subscribe: (_root, _args, { services }) => services.live.optionsChanges(),
    resolve: (set: SleeveOptionSet, _args, { publicUrl }) => viewOptions(set, publicUrl),
  }),
);

builder.subscriptionField('orderEvents', (t) =>
  t.field({
    type: OrderRef,
    description: 'Staff: every change of every order, as it happens.',
    authScopes: { staff: true },
    subscribe: (_root, _args, { services }) => services.live.orderEvents(),
    resolve: (order: Order, _args, { services }) => services.orders.view(order),
  }),
);

builder.subscriptionField('pickupBoard', (t) =>
  t.field({
    type: PickupBoardEventRef,
    description: 'Public: the board at once, then each time an order becomes ready, is collected or leaves it.',
    subscribe: (_root, _args, { services }) => services.live.pickupBoard(),
    resolve: (event: PickupBoardEvent) => event,
  }),
);
