/**
 * The staff side of the schema (docs/graphql.md#root-fields): the order list as a connection, the options input, and the Order
 * fields only staff may read. Every field here requires the `staff` scope; anyone else gets UNAUTHORIZED.
 */
import type { OrderView, StaffOrderFields } from '../../src/orders/order-view.ts';
import { builder } from '../builder.ts';
import { OrderRef, PayMethodEnum } from './order.ts';

export interface OrderEdgeShape {
  cursor: string;
  node: OrderView;
}

export interface OrderConnectionShape {
  edges: OrderEdgeShape[];
  pageInfo: PageInfoShape;
  totalCount: number;
}

export interface PageInfoShape {
  hasNextPage: boolean;
  endCursor: string | null;
  /** The first edge's cursor; added by relayPageInfo, since the services page forward and leave it out. */
  startCursor?: string | null;
}

/** A page's PageInfo with all four fields of the Relay connection spec (docs/graphql.md#object-identity). */
export const relayPageInfo = (page: { edges: ReadonlyArray<{ cursor: string }>; pageInfo: PageInfoShape }): PageInfoShape => ({
  ...page.pageInfo,
  startCursor: page.edges[0]?.cursor ?? null,
});

/**
 * The words every connection's edges, cursor and pageInfo carry. The connections here are built by hand (the services
 * page with their own cursors), not by plugin-relay's connection helpers, so its edgesFieldOptions and cursorFieldOptions
 * never reach them: each connection uses these instead, and says in one word what its node is.
 */
export const CONNECTION_TEXTS = {
  edges: "This page's items, in the list's order, each with its cursor; empty when nothing (more) matches.",
  pageInfo: 'Whether more items follow (hasNextPage) and the cursor to pass as `after` for the next page (endCursor).',
  cursor: 'Opaque position of this item in the list: pass it as `after` to read the items that follow it.',
  edge: (what: string) => `One ${what} in a page of the list, with its cursor.`,
  node: (what: string) => `The ${what} itself.`,
};

export const PageInfoRef = builder.objectRef<PageInfoShape>('PageInfo').implement({
  description: 'Where a page ends: pass endCursor as `after` to read the next one while hasNextPage is true.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'True when more items follow this page: read them with after: endCursor. False on the last page.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Opaque; null on an empty page.' }),
    hasPreviousPage: t.boolean({
      description: 'Always false: these connections page forward only (first, after), where the Relay connection spec allows false.',
      resolve: () => false,
    }),
    startCursor: t.string({ nullable: true, description: "The first edge's cursor; null on an empty page.", resolve: (p) => p.startCursor ?? null }),
  }),
});

const OrderEdgeRef = builder.objectRef<OrderEdgeShape>('OrderEdge').implement({
  description: CONNECTION_TEXTS.edge('order'),
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: CONNECTION_TEXTS.cursor }),
    node: t.field({ type: OrderRef, description: CONNECTION_TEXTS.node('order, with its staff fields'), resolve: (e) => e.node }),
  }),
});

export const OrderConnectionRef = builder.objectRef<OrderConnectionShape>('OrderConnection').implement({
  description: 'Orders by order number, oldest first.',
  fields: (t) => ({
    edges: t.field({ type: [OrderEdgeRef], description: CONNECTION_TEXTS.edges, resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, description: CONNECTION_TEXTS.pageInfo, resolve: relayPageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'Orders matching the status filter, on every page.' }),
  }),
});

const ChoiceInputRef = builder.inputType('ChoiceInput', {
  description: 'One size, font or thread to offer: its value, and for threads and fonts how the previews draw it.',
  fields: (t) => ({
    value: t.string({ required: true, description: "1 to 40 letters, digits, spaces or . ' & -" }),
    color: t.string({ description: 'Threads: the colour the previews draw with, like #1f2f5c. Omitted: the colour this thread has now; a new thread needs one.' }),
    family: t.string({ description: 'Fonts: the CSS font-family list the previews draw with, like Georgia, serif. Omitted: the family this font has now.' }),
  }),
});

export const SleeveOptionsInputRef = builder.inputType('SleeveOptionsInput', {
  description: 'A whole new set of options; orders already made keep theirs.',
  fields: (t) => ({
    sizes: t.field({ type: [ChoiceInputRef], required: true, description: 'The sizes to offer, in the order shown: 1 to 50, no value twice (compared ignoring case).' }),
    fonts: t.field({ type: [ChoiceInputRef], required: true, description: 'The fonts to offer, in the order shown: 1 to 50, no value twice; family sets how previews draw each.' }),
    threads: t.field({ type: [ChoiceInputRef], required: true, description: 'The thread colours to offer, in the order shown: 1 to 50, no value twice; a new thread needs its color.' }),
    charLimit: t.int({ required: true, description: 'Maximum length of stitchText, 1 to 60.' }),
    baseVersion: t.int({
      required: false,
      description: 'The version this set was edited from. When another set was published since, the update is refused (VALIDATION_FAILED, field baseVersion) and nothing changes; without it the set replaces whatever is offered.',
    }),
  }),
});

function staffOf(view: OrderView): StaffOrderFields {
  if (!view.staff) throw new Error(`order ${view.orderNumber} was viewed without its staff fields`);
  return view.staff;
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
const staffOnly = { staff: true } as const;
const STAFF_ONLY = 'Staff only: for anyone else null, with an UNAUTHORIZED error for the field alone.';

builder.objectFields(OrderRef, (t) => ({
  // Every staff field is nullable, though staff always get a value: refused to anyone else (UNAUTHORIZED), a
  // non-null field would null its parent up to the first nullable one, and a createOrder that selected `email`
  // would answer `data: null` for an order it had made, its payToken lost with it (docs/graphql.md#staff-fields).
  name: t.string({ nullable: true, authScopes: staffOnly, description: STAFF_ONLY, resolve: (o) => staffOf(o).name }),
  email: t.string({ nullable: true, authScopes: staffOnly, description: STAFF_ONLY, resolve: (o) => staffOf(o).email }),
  createdAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: STAFF_ONLY, resolve: (o) => new Date(staffOf(o).createdAt) }),
  updatedAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: STAFF_ONLY, resolve: (o) => new Date(staffOf(o).updatedAt) }),
  paidAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: 'Staff only.', resolve: (o) => date(staffOf(o).paidAt) }),
  paymentMethod: t.field({
    type: PayMethodEnum,
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff only.',
    resolve: (o) => staffOf(o).paymentMethod,
  }),
  version: t.int({ nullable: true, authScopes: staffOnly, description: `${STAFF_ONLY} Increases by one on every change.`, resolve: (o) => staffOf(o).version }),
  cancelReason: t.string({
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff only. Why the order was cancelled, by staff or by the hold running out.',
    resolve: (o) => staffOf(o).cancelReason,
  }),
  cancelledAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: 'Staff only.', resolve: (o) => date(staffOf(o).cancelledAt) }),
  readyAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: 'Staff only.', resolve: (o) => date(staffOf(o).readyAt) }),
  collectedAt: t.field({ type: 'DateTime', nullable: true, authScopes: staffOnly, description: 'Staff only.', resolve: (o) => date(staffOf(o).collectedAt) }),
  collectedBy: t.string({
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff only. The name the collector gave at pickup.',
    resolve: (o) => staffOf(o).collectedBy,
  }),
}));
