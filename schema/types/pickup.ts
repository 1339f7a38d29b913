/** The public pickup board's entry (docs/graphql.md#root-fields): order number, first name and last initial, never an email. */
import type { PickupBoardEvent } from '../../src/orders/live-service.ts';
import type { PickupEntry } from '../../src/orders/staff-service.ts';
import { builder } from '../builder.ts';

export const PickupEntryRef = builder.objectRef<PickupEntry>('PickupEntry').implement({
  description: 'An order ready for pickup, as the public board shows it.',
  fields: (t) => ({
    orderNumber: t.exposeID('orderNumber', { description: 'The number to call out.' }),
    displayName: t.exposeString('displayName', { description: 'First name and last initial, like "Ada L."' }),
    readySince: t.field({ type: 'DateTime', description: 'When the sleeve became ready.', resolve: (e) => new Date(e.readySince) }),
  }),
});

const PickupChangeEnum = builder.enumType('PickupChange', {
  description: 'What changed on the pickup board: redraw it from the event\'s board either way.',
  values: {
    SNAPSHOT: { value: 'snapshot', description: 'The whole board, sent first on every (re)connection.' },
    READY: { value: 'ready', description: 'An order became ready.' },
    COLLECTED: { value: 'collected', description: 'An order was collected.' },
    REMOVED: { value: 'removed', description: 'An order left the board for another reason (cancelled).' },
  },
});

export const PickupBoardEventRef = builder.objectRef<PickupBoardEvent>('PickupBoardEvent').implement({
  description: 'A change of the pickup board, with the whole board after it.',
  fields: (t) => ({
    change: t.field({ type: PickupChangeEnum, description: 'What changed; SNAPSHOT first on every (re)connection.', resolve: (e) => e.change }),
    orderNumber: t.id({ nullable: true, description: 'The order that changed; null on SNAPSHOT.', resolve: (e) => e.orderNumber }),
    board: t.field({ type: [PickupEntryRef], description: 'The whole board after the change: draw it as is.', resolve: (e) => e.board }),
  }),
});
