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
    // Exposed, not resolved: plain property reads for graphql-jit (HoldTickEvent says why).
    orderNumber: t.exposeID('orderNumber', { description: 'The order whose hold this is.' }),
    status: t.expose('status', {
      type: OrderStatusEnum,
      description: 'AWAITING_PAYMENT while the hold runs; the final event is the status then: RECEIVED when paid during the hold, CANCELLED (the hold ran out, or staff), or, for an order no longer held when subscribed, its status at that moment (IN_PROGRESS, READY, COLLECTED too).',
    }),
    secondsLeft: t.exposeInt('secondsLeft', { description: 'Whole seconds, rounded down, never negative.' }),
    holdUntil: t.expose('holdUntil', { type: 'DateTime', description: 'When the hold ends and an unpaid order is cancelled.' }),
    holdUntilText: t.string({ description: 'The deadline in New York time.', resolve: (e, _args, ctx) => holdUntilText(e.order.holdUntil, ctx.now()) }),
    final: t.exposeBoolean('final', { description: 'The last event of the stream: the hold is over.' }),
  }),
});
