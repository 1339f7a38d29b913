/** Root fields of document 1: options, event information, one order, create and pay. Thin: args → service → view. */
import { DomainError } from '../../src/kernel/errors.ts';
import { viewOptions, type OptionsView } from '../../src/orders/options-view.ts';
import type { SleeveOptionSet } from '../../src/orders/sleeve-options.ts';
import { parsePayInput } from '../../src/orders/order-input.ts';
import { openedOrCounted } from '../../src/kernel/token-guesses.ts';
import { builder } from '../builder.ts';
import { SNAPSHOT } from '../context.ts';
import type { Services } from '../../src/services.ts';
import { OrderInputRef, OrderRef, PayInputRef, PayResultRef, SleeveOptionsRef } from '../types/order.ts';

const optionViews = new WeakMap<SleeveOptionSet, OptionsView>();

function optionsView(set: SleeveOptionSet, publicUrl: string): OptionsView {
  let view = optionViews.get(set);
  if (!view) optionViews.set(set, (view = viewOptions(set, publicUrl)));
  return view;
}

builder.queryField('sleeveOptions', (t) =>
  t.field({
    type: SleeveOptionsRef,
    description: 'The sizes, fonts, threads and stitch text limit offered now.',
    // Its answer is the set's view and PUBLIC_URL's links, nothing else: kept while the set is the same one.
    extensions: { [SNAPSHOT]: (services: Services) => services.options.cached() },
    resolve: (_root, _args, { services, publicUrl }) => {
      // The service keeps one set object per version, so its view is built once per version; once loaded it is
      // answered without a promise, which keeps graphql-jit on its synchronous path.
      const set = services.options.cached();
      return set ? optionsView(set, publicUrl) : services.options.current().then((loaded) => optionsView(loaded, publicUrl));
    },
  }),
);

builder.queryField('eventInfo', (t) =>
  t.string({
    description: 'Agenda, speakers, venue, food and swag, as plain text (the same as /llms-full.txt).',
    resolve: (_root, _args, { services }) => services.eventInfo.text(),
  }),
);

builder.queryField('order', (t) =>
  t.field({
    type: OrderRef,
    nullable: true,
    description: 'One order, for the holder of its payToken. Null for an unknown order or a wrong token.',
    args: {
      orderNumber: t.arg.id({ required: true, description: 'The order number createOrder answered.' }),
      payToken: t.arg.string({ required: true, description: 'The payToken createOrder answered.' }),
    },
    resolve: async (_root, { orderNumber, payToken }, { services, limiter, clientAddress }) => {
      try {
        // Over the address's budget of wrong tokens, openedOrCounted throws RATE_LIMITED instead of not_found.
        const order = await openedOrCounted(limiter, 'lookup', clientAddress, () => services.orders.lookup(String(orderNumber), payToken));
        return services.orders.view(order, { presentedToken: payToken });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') return null;
        throw error;
      }
    },
  }),
);

builder.mutationField('createOrder', (t) =>
  t.field({
    type: OrderRef,
    description: 'Creates an order held unpaid for 5 minutes. Keep the payToken it returns.',
    errors: { types: [DomainError], directResult: true, union: { name: 'CreateOrderResult', description: 'The created Order (keep its payToken), or an ApiError to relay: switch on __typename.' } },
    args: { input: t.arg({ type: OrderInputRef, required: true, description: 'The sleeve and its holder, confirmed with the user.' }) },
    resolve: async (_root, { input }, { services }) => {
      const { order, payToken } = await services.orders.create(input);
      return services.orders.view(order, { payToken });
    },
  }),
);

builder.mutationField('payOrder', (t) =>
  t.field({
    type: PayResultRef,
    description: 'Pays a held order. Idempotent: paying a paid order answers alreadyPaid and charges nothing.',
    errors: { types: [DomainError], directResult: true, union: { name: 'PayOrderResult', description: 'The PayResult (check alreadyPaid), or an ApiError to relay: switch on __typename; retry only when retryable.' } },
    args: {
      orderNumber: t.arg.id({ required: true, description: 'The order number createOrder answered.' }),
      input: t.arg({ type: PayInputRef, required: true, description: 'The payToken and how to pay.' }),
    },
    resolve: async (_root, { orderNumber, input }, { services, limiter, clientAddress }) => {
      const paid = await openedOrCounted(limiter, 'pay', clientAddress, async () => {
        // The same PayInput rules as REST (token with vendor_card, none with card or wallet), from one place.
        const pay = parsePayInput({ t: input.t, method: input.method, ...(input.token != null ? { token: input.token } : {}) });
        return services.orders.pay(String(orderNumber), pay);
      });
      return services.orders.viewPayment(paid);
    },
  }),
);
