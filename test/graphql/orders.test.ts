/**
 * The GraphQL door of document 1 (docs/graphql.md), over both transports (support/graphql-transports.ts): in memory
 * through the real /graphql Fetch handler, and through the production node:http entry on a real port (its fast JSON
 * path included): the options, creating, looking up and paying an order. Its guards are operation-limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { CREATE, createdOrder, createOrder, LOOKUP, PAY } from './order-operations.ts';

describe.each(TRANSPORTS)('over %s', (transport) => {
  describe('sleeveOptions and eventInfo', () => {
    it('answers the options offered now, with a preview image per choice', async () => {
      const t = await gatewayOver(transport);
      const result = await t.gql(`{
        sleeveOptions {
          sizes fonts threads charLimit
          sizeChoices { value image }
          fontChoices { value image }
          threadChoices { value image }
        }
      }`);
      expect(result.status).toBe(200);
      expect(result.errors).toBeUndefined();
      const options = result.data.sleeveOptions;
      expect(options.sizes).toContain('13-inch');
      expect(options.fonts).toContain('Block');
      expect(options.threads).toContain('Gold');
      expect(options.charLimit).toBe(20);
      for (const [list, choices] of [
        [options.sizes, options.sizeChoices],
        [options.fonts, options.fontChoices],
        [options.threads, options.threadChoices],
      ]) {
        expect(choices.map((c: { value: string }) => c.value)).toEqual(list);
        for (const choice of choices) expect(choice.image).toMatch(/^http:\/\/sleeve\.test\/images\/options\/\w+\/.+\.svg$/u);
      }
      expect(options.threadChoices[0]).toEqual({ value: 'Gold', image: 'http://sleeve.test/images/options/thread/Gold.svg' });
    });

    it('eventInfo is the same text as GET /llms-full.txt', async () => {
      const t = await gatewayOver(transport);
      const result = await t.gql('{ eventInfo }');
      const rest = await t.rest('GET', '/llms-full.txt');
      expect(rest.status).toBe(200);
      expect(result.data.eventInfo).toBe(rest.body);
      expect(result.data.eventInfo).toMatch(/agenda/iu);
    });
  });

  describe('createOrder', () => {
    it('returns the held Order with its hold fields, payToken, texts and GraphQL-style enums', async () => {
      const t = await gatewayOver(transport);
      const order = await createOrder(t);
      expect(order).toMatchObject({
        __typename: 'Order',
        orderNumber: '1001',
        status: 'AWAITING_PAYMENT',
        holdUntil: '2026-11-22T15:05:00.000Z',
        holdUntilText: '10:05 AM ET',
        secondsLeft: 300,
        payLabel: 'Pay $1.00 - all payments will be refunded',
        reason: null,
        order: { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA 1815', status: 'AWAITING_PAYMENT' },
      });
      expect(order.payToken).toMatch(/^[\w-]{22,}$/u);
      expect(order.payUrl).toBe(`http://sleeve.test/pay/1001?t=${encodeURIComponent(order.payToken)}`);
      expect(order.message).toContain('1001');
      expect(order.nextAction).toContain('10:05 AM ET');
      expect(order.nextAction).toContain('vendor_card');
    });

    it('a rule break is an ApiError VALIDATION_FAILED naming the field, not a GraphQL error', async () => {
      const t = await gatewayOver(transport);
      const result = await t.gql(CREATE, { input: { ...VALID_ORDER, stitchText: '<script>' } });
      expect(result.status).toBe(200);
      expect(result.errors).toBeUndefined();
      expect(result.data.createOrder).toMatchObject({
        __typename: 'ApiError',
        code: 'VALIDATION_FAILED',
        field: 'stitchText',
        retryable: false,
        existing: null,
      });
      expect(result.data.createOrder.error).toMatch(/stitchText/u);

      const size = await createOrder(t, { ...VALID_ORDER, size: '99-inch' });
      expect(size).toMatchObject({ code: 'VALIDATION_FAILED', field: 'size' });
      expect(size.error).toContain('13-inch');
      const email = await createOrder(t, { ...VALID_ORDER, email: 'not an email' });
      expect(email).toMatchObject({ code: 'VALIDATION_FAILED', field: 'email' });
    });

    it('a missing input field is refused by GraphQL validation (the schema requires it)', async () => {
      const t = await gatewayOver(transport);
      const { email: _email, ...noEmail } = VALID_ORDER;
      const result = await t.gql(CREATE, { input: noEmail });
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.message).toMatch(/email/u);
    });

    it('a second order for the same email is DUPLICATE with the existing order and a working payToken', async () => {
      const t = await gatewayOver(transport);
      const first = await createdOrder(t);
      const duplicate = await createOrder(t, { ...VALID_ORDER, name: 'Ada King' });
      expect(duplicate).toMatchObject({
        __typename: 'ApiError',
        code: 'DUPLICATE',
        retryable: false,
        existing: { orderNumber: first.orderNumber, status: 'AWAITING_PAYMENT', holdUntil: first.holdUntil, secondsLeft: 300 },
      });
      const token: string = duplicate.existing.payToken;
      expect(token).toBeTruthy();
      expect(token).not.toBe(first.payToken);

      const lookup = await t.gql(LOOKUP, { orderNumber: first.orderNumber, payToken: token });
      expect(lookup.errors).toBeUndefined();
      expect(lookup.data.order).toMatchObject({ orderNumber: first.orderNumber, status: 'AWAITING_PAYMENT' });
      // The first token keeps working too.
      const again = await t.gql(LOOKUP, { orderNumber: first.orderNumber, payToken: first.payToken });
      expect(again.data.order?.orderNumber).toBe(first.orderNumber);
    });

    it('a staff field asked without the token fails alone: the order is made and its payToken answered', async () => {
      const t = await gatewayOver(transport);
      const res = await t.gql(`mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber payToken email version } } }`, { input: VALID_ORDER });
      expect(res.data.createOrder).toMatchObject({ orderNumber: '1001', email: null, version: null });
      expect(res.data.createOrder.payToken).toEqual(expect.any(String));
      expect(res.errors?.map((e) => [e.path!.join('.'), e.extensions!.code]).sort()).toEqual([
        ['createOrder.email', 'UNAUTHORIZED'],
        ['createOrder.version', 'UNAUTHORIZED'],
      ]);
      const staff = await t.gql('{ orders(first: 1) { edges { node { email version } } } }', {}, { token: t.adminToken });
      expect(staff.data.orders.edges[0].node).toEqual({ email: VALID_ORDER.email, version: expect.any(Number) });
    });

    it('a duplicate of a paid order shows nothing of that order, as REST does (an email is no key to it)', async () => {
      const t = await gatewayOver(transport);
      const first = await createdOrder(t);
      await t.gql(PAY, { orderNumber: first.orderNumber, input: { t: first.payToken, method: 'VENDOR_CARD' } });
      const duplicate = await createOrder(t);
      expect(duplicate).toMatchObject({ code: 'DUPLICATE', existing: null });
      const rest = await t.rest('POST', '/api/orders', VALID_ORDER);
      expect(rest.status).toBe(409);
      expect(rest.body).not.toHaveProperty('orderNumber');
    });

    it('emails compare case-insensitively after trimming', async () => {
      const t = await gatewayOver(transport);
      const first = await createdOrder(t);
      const duplicate = await createOrder(t, { ...VALID_ORDER, email: '  ADA@Example.COM ' });
      expect(duplicate).toMatchObject({ code: 'DUPLICATE', existing: { orderNumber: first.orderNumber } });
    });

    it('numbers orders from 1001 upwards', async () => {
      const t = await gatewayOver(transport);
      const a = await createdOrder(t);
      const b = await createdOrder(t, { ...VALID_ORDER, email: 'grace@example.com', name: 'Grace Hopper' });
      expect([a.orderNumber, b.orderNumber]).toEqual(['1001', '1002']);
    });
  });

  describe('order(orderNumber, payToken)', () => {
    it('answers the order for its token, without returning the payToken', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      await t.clock.advance(61_500);
      const result = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: created.payToken });
      expect(result.errors).toBeUndefined();
      expect(result.data.order).toMatchObject({
        orderNumber: '1001',
        status: 'AWAITING_PAYMENT',
        holdUntil: created.holdUntil,
        secondsLeft: 238,
        payToken: null,
        order: { stitchText: 'ADA 1815', status: 'AWAITING_PAYMENT' },
      });
      // payUrl still works for the holder of the token.
      expect(result.data.order.payUrl).toBe(`http://sleeve.test/pay/1001?t=${encodeURIComponent(created.payToken)}`);
    });

    it('is null for a wrong token and for an unknown order number, exactly alike', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      const wrong = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: 'not-the-token' });
      const empty = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: '' });
      const unknown = await t.gql(LOOKUP, { orderNumber: '999999', payToken: created.payToken });
      const notANumber = await t.gql(LOOKUP, { orderNumber: 'abc', payToken: created.payToken });
      for (const result of [wrong, empty, unknown, notANumber]) {
        expect(result.status).toBe(200);
        expect(result.errors).toBeUndefined();
        expect(result.data).toEqual({ order: null });
      }
    });

    it('shows CANCELLED with the reason once the hold has run out', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      await t.clock.advance(300_000);
      const result = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: created.payToken });
      expect(result.data.order).toMatchObject({
        status: 'CANCELLED',
        reason: 'not paid within 5 minutes',
        holdUntil: null,
        holdUntilText: null,
        secondsLeft: null,
        payUrl: null,
        payToken: null,
        order: { status: 'CANCELLED' },
      });
    });
  });

  describe('payOrder', () => {
    it('VENDOR_CARD pays once: RECEIVED, then alreadyPaid on a second try', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      const input = { t: created.payToken, method: 'VENDOR_CARD' };
      const first = await t.gql(PAY, { orderNumber: created.orderNumber, input });
      expect(first.errors).toBeUndefined();
      expect(first.data.payOrder).toMatchObject({
        __typename: 'PayResult',
        orderNumber: '1001',
        status: 'RECEIVED',
        alreadyPaid: false,
        order: { status: 'RECEIVED', payToken: null, holdUntil: null },
      });
      expect(first.data.payOrder.message).toMatch(/paid/u);
      expect(first.data.payOrder.nextAction).toBeTruthy();

      const second = await t.gql(PAY, { orderNumber: created.orderNumber, input });
      expect(second.data.payOrder).toMatchObject({ __typename: 'PayResult', status: 'RECEIVED', alreadyPaid: true });
      expect(second.data.payOrder.nextAction).toMatch(/do not pay again/iu);

      // The payToken keeps working for lookup after payment; it is only no longer returned.
      const lookup = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: created.payToken });
      expect(lookup.data.order).toMatchObject({ status: 'RECEIVED', payToken: null, holdUntil: null, payUrl: null });
    });

    it('VENDOR_CARD with a token, and CARD or WALLET without one, are BAD_REQUEST on field token', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      const pay = (input: Record<string, unknown>) => t.gql(PAY, { orderNumber: created.orderNumber, input: { t: created.payToken, ...input } });

      const vendorWithToken = await pay({ method: 'VENDOR_CARD', token: 'tok_123' });
      expect(vendorWithToken.data.payOrder).toMatchObject({ __typename: 'ApiError', code: 'BAD_REQUEST', field: 'token', retryable: false });
      for (const method of ['CARD', 'WALLET']) {
        const result = await pay({ method });
        expect(result.data.payOrder).toMatchObject({ code: 'BAD_REQUEST', field: 'token', retryable: false });
      }
      // Nothing was paid.
      const lookup = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: created.payToken });
      expect(lookup.data.order.status).toBe('AWAITING_PAYMENT');
    });

    it('an unknown method is refused by GraphQL validation (PayMethod enum)', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      const result = await t.gql(PAY, { orderNumber: created.orderNumber, input: { t: created.payToken, method: 'vendor_card' } });
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.message).toMatch(/PayMethod/u);
    });

    it('after the hold has run out: ApiError CANCELLED with the reason', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      await t.clock.advance(300_000);
      const result = await t.gql(PAY, { orderNumber: created.orderNumber, input: { t: created.payToken, method: 'VENDOR_CARD' } });
      expect(result.data.payOrder).toMatchObject({
        __typename: 'ApiError',
        code: 'CANCELLED',
        reason: 'not paid within 5 minutes',
        retryable: false,
      });
      // The email is free again.
      expect((await createOrder(t)).__typename).toBe('Order');
    });

    it('a wrong token or an unknown order is NOT_FOUND', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      const wrong = await t.gql(PAY, { orderNumber: created.orderNumber, input: { t: 'wrong', method: 'VENDOR_CARD' } });
      const unknown = await t.gql(PAY, { orderNumber: '4242', input: { t: created.payToken, method: 'VENDOR_CARD' } });
      for (const result of [wrong, unknown]) {
        expect(result.data.payOrder).toMatchObject({ __typename: 'ApiError', code: 'NOT_FOUND', retryable: false, field: null });
      }
      expect(wrong.data.payOrder.error).toBe(unknown.data.payOrder.error);
    });
  });
});
