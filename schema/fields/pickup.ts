/** The public pickup board (docs/graphql.md#root-fields): ready orders with first name and last initial only, longest waiting first. */
import { builder } from '../builder.ts';
import { PickupEntryRef } from '../types/pickup.ts';

builder.queryField('pickupBoard', (t) =>
  t.field({
    type: [PickupEntryRef],
    description: 'Orders ready for pickup: order number, first name and last initial. Public; never an email.',
    resolve: (_root, _args, { services }) => services.staff.pickupBoard(),
  }),
);
