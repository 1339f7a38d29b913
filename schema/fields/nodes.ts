/**
 * The Relay root fields `node(id)` and `nodes(ids)` (docs/graphql.md#object-identity). Public fields: who may
 * fetch which object is decided per object in schema/types/nodes.ts, by the rule of that type's own root field.
 */
import { DomainError } from '../../src/kernel/errors.ts';
import { builder } from '../builder.ts';
import { fetchNodes, NODES_MAX } from '../types/nodes.ts';

builder.queryField('node', (t) =>
  t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'The object with this id, as its own field would show it to you: an Order for staff only (null for anyone else: use order(orderNumber, payToken)); a staff object for staff only (UNAUTHORIZED otherwise). Null when unknown.',
    args: { id: t.arg.id({ required: true, description: 'A global id this API gave out (an object\'s `id`); anything else is VALIDATION_FAILED (field id).' }) },
    resolve: async (_root, { id }, context, info) => (await fetchNodes([String(id)], context, info))[0] as object | null,
  }),
);

builder.queryField('nodes', (t) =>
  t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `The objects with these ids, in order, each as node(id) answers it (at most ${NODES_MAX}); an id that is refused fails only its own item.`,
    args: { ids: t.arg.idList({ required: true, description: `Global ids, at most ${NODES_MAX}; the answer has one item per id, in the same order.` }) },
    resolve: (_root, { ids }, context, info) => {
      if (ids.length > NODES_MAX) throw new DomainError('validation_failed', `At most ${NODES_MAX} ids at a time.`, { field: 'ids' });
      return fetchNodes(ids.map(String), context, info) as Promise<Array<object | null>>;
    },
  }),
);
