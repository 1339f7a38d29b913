/**
 * The GraphQL door of document 1 (docs/graphql.md), over both transports (support/graphql-transports.ts): in memory
 * through the real /graphql Fetch handler, and through the production node:http entry on a real port (its fast JSON
 * path included). Yoga, masking, query limits and rate limits on each.
 */
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

const CREATE = /* GraphQL */ `
  mutation Create($input: OrderInput!) {
    createOrder(input: $input) {
      __typename
      ... on Order {
        orderNumber
        status
        holdUntil
        holdUntilText
        secondsLeft
        payUrl
        payToken
        payLabel
        reason
        order { size font thread stitchText status }
        message
        nextAction
      }
      ... on ApiError {
        code
        field
        error
        retryable
        reason
        # Order.order (the sleeve) and ApiError.order (the existing order) differ in type: alias one of them.
        existing: order { orderNumber status payToken holdUntil secondsLeft }
      }
    }
  }
`;

const LOOKUP = /* GraphQL */ `
  query Lookup($orderNumber: ID!, $payToken: String!) {
    order(orderNumber: $orderNumber, payToken: $payToken) {
      orderNumber
      status
      holdUntil
      holdUntilText
      secondsLeft
      payUrl
      payToken
      reason
      order { size font thread stitchText status }
      message
      nextAction
    }
  }
`;

const PAY = /* GraphQL */ `
  mutation Pay($orderNumber: ID!, $input: PayInput!) {
    payOrder(orderNumber: $orderNumber, input: $input) {
      __typename
      ... on PayResult { orderNumber status alreadyPaid message nextAction order { status payToken holdUntil } }
      ... on ApiError { code field error retryable reason }
    }
  }
`;

async function createOrder(t: TestGateway, input: Record<string, unknown> = VALID_ORDER) {
  const result = await t.gql(CREATE, { input });
  expect(result.errors).toBeUndefined();
  return result.data.createOrder;
}

async function createdOrder(t: TestGateway, input: Record<string, unknown> = VALID_ORDER) {
  const order = await createOrder(t, input);
  expect(order.__typename).toBe('Order');
  return order as { orderNumber: string; payToken: string; holdUntil: string };
}

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

  describe('error masking', () => {
    it('an unexpected failure answers yoga\'s generic message, never the driver\'s', async () => {
      const t = await gatewayOver(transport);
      const created = await createdOrder(t);
      // Break the database under the running gateway. (The gateway's dispose after the test destroys it a second
      // time; Kysely makes that a no-op.)
      await t.gateway.database.destroy();

      const result = await t.gql(LOOKUP, { orderNumber: created.orderNumber, payToken: created.payToken });
      expect(result.data).toEqual({ order: null });
      expect(result.errors).toHaveLength(1);
      const [error] = result.errors!;
      expect(error!.message).toBe('Unexpected error.');
      expect(error!.path).toEqual(['order']);
      // docs/graphql.md#every-extensionscode: document 1's INTERNAL, retryable (yoga's INTERNAL_SERVER_ERROR said neither).
      expect(error!.extensions).toEqual({ code: 'INTERNAL', retryable: true });
      expect(JSON.stringify(result)).not.toMatch(/sqlite|destroy|driver|database|kysely/iu);

      const create = await t.gql(CREATE, { input: { ...VALID_ORDER, email: 'grace@example.com', name: 'Grace Hopper' } });
      expect(create.errors?.[0]?.message).toBe('Unexpected error.');
      expect(create.errors?.[0]?.extensions).toEqual({ code: 'INTERNAL', retryable: true });
      expect(JSON.stringify(create)).not.toMatch(/sqlite|destroy|driver|database|kysely/iu);
    });
  });

  describe('query limits', () => {
    it('refuses a query whose fields nest deeper than 12 levels; fragments add none', async () => {
      const t = await gatewayOver(transport);
      // Fragments are no level (docs/graphql.md#production): 12 inline ones, and a chain of named ones as a client's
      // colocated fragments spread each other, are as deep as the two fields they hold.
      const nest = (levels: number) =>
        `{ sleeveOptions { ${'... on SleeveOptions { '.repeat(levels)}charLimit${' }'.repeat(levels)} } }`;
      const inline = await t.gql(nest(12));
      expect(inline.errors).toBeUndefined();
      expect(inline.data.sleeveOptions.charLimit).toBe(20);
      const chain = Array.from({ length: 11 }, (_, i) => `fragment F${i} on SleeveOptions { ${i < 10 ? `...F${i + 1}` : 'charLimit'} }`);
      const named = await t.gql(`{ sleeveOptions { ...F0 } } ${chain.join(' ')}`);
      expect(named.errors).toBeUndefined();
      expect(named.data.sleeveOptions.charLimit).toBe(20);

      // Introspection through __type is not exempt: 13 levels of fields.
      const typeDeep = await t.gql(
        '{ __type(name: "Order") { fields { type { ofType { ofType { fields { type { ofType { ofType { fields { type { ofType { name } } } } } } } } } } } } }',
      );
      expect(typeDeep.errors?.[0]?.message).toMatch(/^Query depth limit of 12 exceeded/u);
      expect(typeDeep.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_DEEP');
    });

    it('refuses more than 20 aliases', async () => {
      const t = await gatewayOver(transport);
      const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: eventInfo`).join(' ')} }`;
      const ok = await t.gql(aliases(20));
      expect(ok.errors).toBeUndefined();
      const many = await t.gql(aliases(21));
      expect(many.data).toBeUndefined();
      expect(many.errors?.[0]?.message).toMatch(/aliases limit of 20 exceeded/iu);
      // A validation error with a code, not Armor's thrown "Syntax Error: …".
      expect(many.errors?.[0]?.message).not.toMatch(/^Syntax Error/u);
      expect(many.errors?.[0]?.extensions?.code).toBe('TOO_MANY_ALIASES');
    });

    it('costs a fragment what its fields cost written out and a variable first its value, and refuses past 10,000 with the cost found', async () => {
      const t = await gatewayOver(transport);
      const fields = 'email name order { size font thread stitchText }';
      const refused = [expect.objectContaining({ message: expect.stringMatching(/^Query cost limit of 10000 exceeded, found \d+/u), extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY' }) })];
      // The largest page the schema serves, with a whole row's fields: a page is never refused for its size alone.
      const rows = 'id orderNumber status email name createdAt holdUntil holdUntilText paidAt message nextAction payLabel cancelReason order { size font thread stitchText status }';
      const largest = await t.gql(`{ orders(first: 200) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${rows} } } } }`, {}, { token: t.adminToken });
      expect(largest.errors).toBeUndefined();
      // Pages multiplied by aliases are: a page of these fields costs 2,800, three 8,400, four 11,200.
      const pages = (n: number, row: string, size = '200') => Array.from({ length: n }, (_, i) => `p${i}: orders(first: ${size}) { edges { node { ${row} } } }`).join(' ');
      const inline = await t.gql(`{ ${pages(3, fields)} }`, {}, { token: t.adminToken });
      expect(inline.errors).toBeUndefined();
      // The same selection through fragments (GraphQL Armor's cost plugin charged each spread extra, and refused such).
      const spread = await t.gql(`{ ${pages(3, '...Row')} } fragment Row on Order { ...Who order { ...Sleeve } } fragment Who on Order { email name } fragment Sleeve on OrderedSleeve { size font thread stitchText }`, {}, { token: t.adminToken });
      expect(spread.errors).toBeUndefined();
      const mixed = await t.gql(`{ ${pages(3, '... on Order { ...Who } ... { order { size font thread stitchText } }')} } fragment Who on Order { email name }`, {}, { token: t.adminToken });
      expect(mixed.errors).toBeUndefined();

      const costly = await t.gql(`{ ${pages(4, '...Row')} } fragment Row on Order { ${fields} }`, {}, { token: t.adminToken });
      expect(costly.data).toBeUndefined();
      expect(costly.errors).toEqual(refused);

      // `first` as a variable costs its value: each time, on yoga's path (the document's first request) and on the
      // fast JSON path (the next ones); a default counts when the variable is not sent.
      const sized = `query Pages($n: Int) { ${pages(4, '...Row', '$n')} } fragment Row on Order { ${fields} }`;
      for (const n of [200, 150, 200, 200]) {
        const answer = await t.gql(sized, { n }, { token: t.adminToken });
        if (n === 150) expect(answer.errors).toBeUndefined();
        else expect(answer.errors).toEqual(refused);
      }
      const byDefault = await t.gql(`query Pages($n: Int = 200) { ${pages(4, fields, '$n')} }`, {}, { token: t.adminToken });
      expect(byDefault.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');

      // Fragments that spread each other twice over cost 2^39 fields written out: reckoned once each (the answer
      // comes at once, not after 2^39 steps) and refused.
      const twice = Array.from({ length: 40 }, (_, i) => `fragment T${i} on SleeveOptions { ${i < 39 ? `...T${i + 1} ...T${i + 1}` : 'charLimit'} }`);
      const doubling = await t.gql(`{ sleeveOptions { ...T0 } } ${twice.join(' ')}`);
      expect(doubling.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    });

    it('admits one introspection of the whole schema in an operation, and refuses a second however it is written', async () => {
      // A security review: Armor priced __schema at nothing and its depth limit skipped it, so 20 aliases of a deep
      // __schema selection answered 10.6 MB after 3 s of a core, every other request waiting.
      const t = await gatewayOver(transport);
      const deep = 'types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } }';
      const one = await t.gql(getIntrospectionQuery());
      expect([one.errors, (one.data as { __schema: { types: unknown[] } }).__schema.types.length > 20]).toEqual([undefined, true]);
      const refused = [expect.objectContaining({ message: expect.stringMatching(/^Query cost limit of 10000 exceeded, found 1\d{4}/u), extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY' }) })];
      expect((await t.gql(`{ a: __schema { ${deep} } b: __schema { ${deep} } }`)).errors).toEqual(refused);
      expect((await t.gql(`{ ...S ...S } fragment S on Query { __schema { ${deep} } }`)).errors).toEqual(refused);
      expect((await t.gql(`{ ...S ... on Query { __schema { queryType { name } } } } fragment S on Query { __schema { ${deep} } }`)).errors).toEqual(refused);
    });

    it('refuses a document of more than 2000 tokens', async () => {
      const t = await gatewayOver(transport);
      const query = `{ sleeveOptions { ${'sizes '.repeat(2100)}} }`;
      const result = await t.gql(query);
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.message).toMatch(/token limit of 2000 exceeded/iu);
    });
  });

  describe('rate limits shared with REST', () => {
    it('a third createOrder is RATE_LIMITED (429, Retry-After), and so is the REST door', async () => {
      const t = await gatewayOver(transport, { env: { RATE_LIMIT_WRITE: '2' } });
      await createdOrder(t);
      await createdOrder(t, { ...VALID_ORDER, email: 'grace@example.com', name: 'Grace Hopper' });

      const third = await t.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query: CREATE, variables: { input: { ...VALID_ORDER, email: 'alan@example.com', name: 'Alan Turing' } } }),
      });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await third.json()) as { data?: unknown; errors: Array<{ message: string; extensions: Record<string, unknown> }> };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
      expect(body.errors[0]!.message).toMatch(/too many requests/iu);

      const rest = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'alan@example.com', name: 'Alan Turing' });
      expect(rest.status).toBe(429);
      expect(rest.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
      expect(rest.headers.get('retry-after')).toBeTruthy();

      // Reads have their own, generous limit.
      const options = await t.gql('{ sleeveOptions { charLimit } }');
      expect(options.errors).toBeUndefined();

      // The window slides (docs/edge.md#rate-limits-at-a-venue): writes pass again once Retry-After has passed.
      await t.clock.advance(Number(third.headers.get('retry-after')) * 1000);
      const later = await t.gql(CREATE, { input: { ...VALID_ORDER, email: 'alan@example.com', name: 'Alan Turing' } });
      expect(later.errors).toBeUndefined();
      expect(later.data.createOrder.__typename).toBe('Order');
    });
  });
});
