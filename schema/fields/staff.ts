/**
 * Staff root fields (docs/graphql.md#root-fields): list orders, move them forward, hand them over, cancel them, change the options
 * and the event information. Every field needs the staff scope (Authorization: Bearer $ADMIN_TOKEN); a DomainError
 * becomes `extensions.code` in schema/errors.ts. Thin: args → service → view.
 */
import { viewOptions } from '../../src/orders/options-view.ts';
import type { Choice } from '../../src/orders/sleeve-options.ts';
import { builder } from '../builder.ts';
import { OrderRef, OrderStatusEnum, SleeveOptionsRef } from '../types/order.ts';
import { OrderConnectionRef, SleeveOptionsInputRef } from '../types/staff.ts';

const staffOnly = { staff: true } as const;

builder.queryField('orders', (t) =>
  t.field({
    type: OrderConnectionRef,
    authScopes: staffOnly,
    description: 'Staff: every order by order number, oldest first, optionally only some statuses. first: 50 by default, 200 at most.',
    args: {
      status: t.arg({ type: [OrderStatusEnum], description: 'Only orders in these statuses; all when omitted or empty.' }),
      first: t.arg.int({ description: 'Page size, 0 to 200; 50 when omitted. Outside that range: VALIDATION_FAILED (field first).' }),
      after: t.arg.string({ description: 'endCursor of the previous page.' }),
    },
    resolve: async (_root, { status, first, after }, { services }) => {
      const page = await services.staff.list({ statuses: status ?? null, first: first ?? null, after: after ?? null });
      return {
        ...page,
        edges: page.edges.map((e) => ({ cursor: e.cursor, node: services.orders.view(e.node) })),
      };
    },
  }),
);

builder.mutationField('advanceOrder', (t) =>
  t.field({
    type: OrderRef,
    authScopes: staffOnly,
    description: 'Staff: move a paid order forward (RECEIVED → IN_PROGRESS → READY; steps may be skipped, never back).',
    args: {
      orderNumber: t.arg.id({ required: true, description: 'The order number (digits), as orders or createOrder show it.' }),
      status: t.arg({ type: OrderStatusEnum, required: true, description: 'The status to move to: IN_PROGRESS or READY, later than the current one. COLLECTED goes through collectOrder; anything else is VALIDATION_FAILED (field status).' }),
    },
    resolve: async (_root, { orderNumber, status }, { services }) =>
      services.orders.view(await services.staff.advance(String(orderNumber), status)),
  }),
);

builder.mutationField('collectOrder', (t) =>
  t.field({
    type: OrderRef,
    authScopes: staffOnly,
    description: "Staff: hand over a READY order. The collector's first and last name must match the order's.",
    args: {
      orderNumber: t.arg.id({ required: true, description: 'The order number (digits), as orders or createOrder show it.' }),
      collectorName: t.arg.string({ required: true, description: "The first and last name the collector gives; must match the order's name, ignoring case, accents and extra spaces." }),
    },
    resolve: async (_root, { orderNumber, collectorName }, { services }) =>
      services.orders.view(await services.staff.collect(String(orderNumber), collectorName)),
  }),
);

builder.mutationField('cancelOrder', (t) =>
  t.field({
    type: OrderRef,
    authScopes: staffOnly,
    description: 'Staff: cancel any order not collected, with a reason (1 to 300 characters). Frees the email.',
    args: { orderNumber: t.arg.id({ required: true, description: 'The order number (digits), as orders or createOrder show it.' }), reason: t.arg.string({ required: true, description: 'Why, 1 to 300 characters: kept as the order\'s cancelReason.' }) },
    resolve: async (_root, { orderNumber, reason }, { services }) =>
      services.orders.view(await services.staff.cancel(String(orderNumber), reason)),
  }),
);

const choices = (list: ReadonlyArray<{ value: string; color?: string | null; family?: string | null }>): Choice[] =>
  list.map((c) => ({ value: c.value, ...(c.color != null ? { color: c.color } : {}), ...(c.family != null ? { family: c.family } : {}) }));

builder.mutationField('updateSleeveOptions', (t) =>
  t.field({
    type: SleeveOptionsRef,
    authScopes: staffOnly,
    description: 'Staff: publish a new set of options. New orders are checked against it; orders already made keep theirs.',
    args: { input: t.arg({ type: SleeveOptionsInputRef, required: true, description: 'The whole new set: every size, font and thread to offer, and the stitch text limit.' }) },
    resolve: async (_root, { input }, { services, publicUrl }) => {
      const set = await services.options.update({
        sizes: choices(input.sizes),
        fonts: choices(input.fonts),
        threads: choices(input.threads),
        charLimit: input.charLimit,
      }, input.baseVersion);
      return viewOptions(set, publicUrl);
    },
  }),
);

builder.mutationField('setEventInfo', (t) =>
  t.string({
    authScopes: staffOnly,
    description: 'Staff: replace the event information (eventInfo and /llms-full.txt).',
    args: { text: t.arg.string({ required: true, description: 'The whole new text, plain text up to 100,000 characters; not blank.' }) },
    resolve: (_root, { text }, { services }) => services.eventInfo.replace(text),
  }),
);
