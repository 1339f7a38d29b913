/** Order, SleeveOptions, PayResult and their inputs and enums (document 1 §2, docs/graphql.md#enum-style). */
import { ORDER_STATUSES, PAY_METHODS } from '../../src/orders/order.ts';
import type { OrderView, PayResultView } from '../../src/orders/order-view.ts';
import type { ChoiceView, OptionsView } from '../../src/orders/options-view.ts';
import { builder } from '../builder.ts';

const graphqlName = (value: string) => value.toUpperCase().replace(/ /gu, '_');

/** What each status means to the person waiting for the sleeve (document 1 §3); GraphiQL and codegen show it. */
const STATUS_MEANINGS: Record<(typeof ORDER_STATUSES)[number], string> = {
  'awaiting payment': 'Held unpaid until holdUntil; cancelled if not paid by then.',
  received: 'Paid; waiting for the embroidery to start.',
  'in progress': 'Being embroidered.',
  ready: 'Ready to collect at the pickup station.',
  collected: 'Collected: the order is over.',
  cancelled: 'Not paid in time, or cancelled by staff (refunded if the holder paid): the order is over.',
};

export const OrderStatusEnum = builder.enumType('OrderStatus', {
  description: 'Where an order is: AWAITING_PAYMENT, then RECEIVED, IN_PROGRESS, READY and COLLECTED; or CANCELLED.',
  values: Object.fromEntries(ORDER_STATUSES.map((status) => [graphqlName(status), { value: status, description: STATUS_MEANINGS[status] }])),
});

const METHOD_MEANINGS: Record<(typeof PAY_METHODS)[number], string> = {
  vendor_card: 'The demo card: nothing is charged, and no token is sent.',
  card: "The holder's own card ($1.00, refunded): send the token the payUrl page creates.",
  wallet: "The holder's wallet ($1.00, refunded): send the token the payUrl page creates.",
};

export const PayMethodEnum = builder.enumType('PayMethod', {
  description: 'VENDOR_CARD: the demo card, nothing is charged. CARD and WALLET need the token the payUrl page creates.',
  values: Object.fromEntries(PAY_METHODS.map((method) => [graphqlName(method), { value: method, description: METHOD_MEANINGS[method] }])),
});

const ChoiceRef = builder.objectRef<ChoiceView>('Choice').implement({
  description: 'An option value with a preview image for chat widgets.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'What to send in OrderInput (size, font or thread).' }),
    image: t.exposeString('image', { description: 'URL of an SVG preview.' }),
    color: t.string({
      nullable: true,
      description: 'threadChoices: the thread colour, #rrggbb. Null for sizes and fonts.',
      resolve: (c) => c.color ?? null,
    }),
    family: t.string({
      nullable: true,
      description: 'fontChoices: the CSS font-family list the previews draw the stitch text with. Null for sizes and threads.',
      resolve: (c) => c.family ?? null,
    }),
  }),
});

/** SleeveOptions' one id: unique across the schema (global ids are never a bare type name). */
const SLEEVE_OPTIONS_ID = 'SleeveOptions';

export const SleeveOptionsRef = builder.objectRef<OptionsView>('SleeveOptions').implement({
  description: 'What can be ordered right now. Options change during the event: read them, never assume them.',
  fields: (t) => ({
    id: t.id({
      description:
        'Always "SleeveOptions": the options offered now are one object, whichever field brings them, so a normalised cache (Apollo Client, urql Graphcache) updates the copy a page shows when sleeveOptionsChanged or updateSleeveOptions delivers a new set.',
      resolve: () => SLEEVE_OPTIONS_ID,
    }),
    sizes: t.exposeStringList('sizes', { description: 'The sizes offered now, in order; sizeChoices adds a preview of each.' }),
    fonts: t.exposeStringList('fonts', { description: 'The fonts offered now; fontChoices adds a preview of each.' }),
    threads: t.exposeStringList('threads', { description: 'The thread colours offered now; threadChoices adds a preview and the colour of each.' }),
    charLimit: t.exposeInt('charLimit', { description: 'Maximum length of stitchText.' }),
    sizeChoices: t.field({ type: [ChoiceRef], description: 'sizes, each with its preview image.', resolve: (o) => o.sizeChoices }),
    fontChoices: t.field({ type: [ChoiceRef], description: 'fonts, each with its preview image and CSS font family.', resolve: (o) => o.fontChoices }),
    threadChoices: t.field({ type: [ChoiceRef], description: 'threads, each with its preview image and colour.', resolve: (o) => o.threadChoices }),
    version: t.exposeInt('version', { description: 'Increases each time staff publish a new set.' }),
  }),
});

const OrderedSleeveRef = builder.objectRef<OrderView['order']>('OrderedSleeve').implement({
  description: 'The options the order was made with; they never change after creation.',
  fields: (t) => ({
    size: t.exposeString('size', { description: 'The size ordered, one of sleeveOptions.sizes then.' }),
    font: t.exposeString('font', { description: 'The font ordered.' }),
    thread: t.exposeString('thread', { description: 'The thread colour ordered.' }),
    stitchText: t.exposeString('stitchText', { description: 'The text to embroider, exactly as confirmed.' }),
    status: t.field({ type: OrderStatusEnum, description: "The order's status, as Order.status.", resolve: (o) => o.status }),
  }),
});

export const OrderRef = builder.objectRef<OrderView>('Order');
OrderRef.implement({
  description: "One sleeve order (document 1's Order). Relay `message` to the user and follow `nextAction`.",
  fields: (t) => ({
    ok: t.boolean({ description: "Always true: document 1's success marker.", resolve: () => true }),
    duplicate: t.boolean({
      description:
        "Always false, as document 1's Order says. A duplicate create answers the ApiError with code DUPLICATE; its `order` is the existing order, false here too (a cache merges it with that order's other answers).",
      resolve: () => false,
    }),
    orderNumber: t.exposeID('orderNumber', { description: 'The number the attendee quotes at pickup: with the payToken, what order and payOrder take.' }),
    status: t.field({ type: OrderStatusEnum, description: 'Where the order is now; orderUpdates streams each change.', resolve: (o) => o.status }),
    holdUntil: t.field({ type: 'DateTime', nullable: true, description: 'Only while awaiting payment.', resolve: (o) => o.hold?.holdUntil ?? null }),
    holdUntilText: t.string({ nullable: true, description: 'The deadline in New York time, to tell the user; null once the order is no longer awaiting payment.', resolve: (o) => o.hold?.holdUntilText ?? null }),
    secondsLeft: t.int({ nullable: true, description: 'Whole seconds of the hold left when answered; only while awaiting payment (holdCountdown streams it).', resolve: (o) => o.hold?.secondsLeft ?? null }),
    payUrl: t.string({ nullable: true, description: 'The hosted page for card or wallet payment; null once the order is no longer awaiting payment.', resolve: (o) => o.hold?.payUrl ?? null }),
    payToken: t.string({
      nullable: true,
      description: "Returned only by createOrder and a duplicate: keep it; it is the argument `payToken` of order and the subscriptions, and `t` in payOrder's input.",
      resolve: (o) => o.hold?.payToken ?? null,
    }),
    payLabel: t.string({ nullable: true, description: 'The words to show beside the payment choice; only while awaiting payment.', resolve: (o) => o.hold?.payLabel ?? null }),
    payButtonLabel: t.string({ nullable: true, description: 'The label of the pay button; only while awaiting payment.', resolve: (o) => o.hold?.payButtonLabel ?? null }),
    reason: t.string({ nullable: true, description: 'Only when cancelled because the hold ran out.', resolve: (o) => o.reason }),
    order: t.field({ type: OrderedSleeveRef, description: 'The sleeve ordered: size, font, thread and stitch text.', resolve: (o) => o.order }),
    previewImage: t.exposeString('previewImage', {
      description:
        'An absolute URL (at PUBLIC_URL) of an SVG picture of what will be stitched: the sleeve in its size, the text in its font and thread colour. Show it to the user before they pay; it holds no token.',
    }),
    message: t.exposeString('message', { description: 'Relay to the user.' }),
    nextAction: t.exposeString('nextAction', { description: 'What to do next; follow it.' }),
  }),
});

export const PayResultRef = builder.objectRef<PayResultView>('PayResult').implement({
  description: 'A payment accepted (or one made before: alreadyPaid). Select `order { id status }` to update a cached order at once.',
  fields: (t) => ({
    orderNumber: t.id({ description: 'The order paid.', resolve: (r) => r.view.orderNumber }),
    status: t.field({ type: OrderStatusEnum, description: 'The order\'s status now: RECEIVED, or later if staff have moved it.', resolve: (r) => r.view.status }),
    alreadyPaid: t.exposeBoolean('alreadyPaid', { description: 'True when an earlier attempt already paid: never pay again.' }),
    message: t.exposeString('message', { description: 'Relay to the user.' }),
    nextAction: t.exposeString('nextAction', { description: 'What to do next; follow it.' }),
    order: t.field({ type: OrderRef, description: 'The order as it is now, under its id: a normalised cache updates it from here.', resolve: (r) => r.view }),
  }),
});

export const OrderInputRef = builder.inputType('OrderInput', {
  description: 'Confirm every field with the user first; spell stitchText back, because embroidery is permanent.',
  fields: (t) => ({
    email: t.string({ required: true, description: 'One order per email (compared trimmed and lower-cased).' }),
    name: t.string({ required: true, description: 'First and last name, checked at pickup.' }),
    size: t.string({ required: true, description: 'One of sleeveOptions.sizes.' }),
    font: t.string({ required: true, description: 'One of sleeveOptions.fonts.' }),
    thread: t.string({ required: true, description: 'One of sleeveOptions.threads.' }),
    stitchText: t.string({ required: true, description: 'The text to embroider: at most sleeveOptions.charLimit characters.' }),
  }),
});

export const PayInputRef = builder.inputType('PayInput', {
  description: "How to pay a held order: its payToken and the way the user chose (document 1's PayInput). Ask the user; never choose for them.",
  fields: (t) => ({
    t: t.string({ required: true, description: 'The payToken from createOrder.' }),
    method: t.field({ type: PayMethodEnum, required: true, description: 'The way the user chose to pay: VENDOR_CARD with no token, or CARD or WALLET with the token from the payUrl page.' }),
    token: t.string({ description: 'Only for CARD and WALLET: the token the payUrl page creates.' }),
  }),
});
