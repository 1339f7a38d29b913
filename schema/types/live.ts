/** Types that only the subscriptions send (docs/graphql.md#root-fields). */
import type { HoldTickEvent } from '../../src/orders/live-service.ts';
import { builder } from '../builder.ts';
import { OrderStatusEnum } from './order.ts';
import { holdUntilText } from '../../src/orders/order-texts.ts';

export const HoldTickRef = builder.objectRef<HoldTickEvent>('HoldTick').implement({
  description:
    'One moment of an order\'s hold: sent at once, then each time the whole seconds left change, then a final ' +
    'event with the new status when the order is paid or cancelled.',
  fields: (t) => ({
    orderNumber: t.id({ resolve: (e) => e.order.orderNumber }),
    status: t.field({ type: OrderStatusEnum, resolve: (e) => e.order.status }),
    secondsLeft: t.int({ description: 'Whole seconds, rounded down, never negative.', resolve: (e) => e.secondsLeft }),
    holdUntil: t.field({ type: 'DateTime', resolve: (e) => new Date(e.order.holdUntil) }),
    holdUntilText: t.string({ description: 'The deadline in New York time.', resolve: (e, _args, ctx) => holdUntilText(e.order.holdUntil, ctx.now()) }),
    final: t.boolean({ description: 'The last event of the stream: the hold is over.', resolve: (e) => e.final }),
  }),
});
