/**
 * The GraphQL door's guards (docs/graphql.md#production), over both transports (support/graphql-transports.ts): an
 * unexpected failure masked, the query limits, and the write rate limit it shares with REST.
 */
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { CREATE, createdOrder, LOOKUP } from './order-operations.ts';

describe.each(TRANSPORTS)('over %s', (transport) => {
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
