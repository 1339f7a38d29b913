/**
 * The GraphQL door over HTTP, through both transports (support/graphql-transports.ts): the production node:http
 * entry on a real socket and the in-memory Fetch handler, on the fast JSON POST path — media types, bad bodies, the
 * body limit, rate limits and masked errors. That it answers like yoga's own path, and yoga's own features (GET,
 * GraphiQL, other content types, GET-mutation refusal), are in http-parity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { JSON_TYPE, QUERY, RESPONSE_TYPE, serve } from './http-serve.ts';

describe.each(TRANSPORTS)('over %s', (transport) => {
  describe('the fast JSON POST path', () => {
    it('answers a query with data, in the media type the client accepts', async () => {
      const { post } = await serve(transport);
      const json = await post({ query: QUERY }, { accept: 'application/json' });
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toBe(JSON_TYPE);
      const body = (await json.json()) as { data: { sleeveOptions: { charLimit: number }; eventInfo: string }; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data.sleeveOptions.charLimit).toBe(20);
      expect(body.data.eventInfo).toMatch(/agenda/iu);

      const graphqlResponse = await post({ query: QUERY }, { accept: RESPONSE_TYPE });
      expect(graphqlResponse.status).toBe(200);
      expect(graphqlResponse.headers.get('content-type')).toMatch(new RegExp(`^${RESPONSE_TYPE.replace(/\+/gu, '\\+')}(;|$)`, 'u'));
      expect(await graphqlResponse.json()).toEqual(body);

      // No accept header: the GraphQL-over-HTTP default.
      const none = await post({ query: QUERY });
      expect(none.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/u);
    });

    it('runs mutations with variables and operationName', async () => {
      const { post } = await serve(transport);
      const response = await post({
        query: `
          query Options { sleeveOptions { charLimit } }
          mutation Create($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber status payToken } } }
        `,
        operationName: 'Create',
        variables: { input: VALID_ORDER },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { createOrder: { orderNumber: string; status: string; payToken: string } } };
      expect(body.data.createOrder).toMatchObject({ orderNumber: '1001', status: 'AWAITING_PAYMENT' });
      expect(body.data.createOrder.payToken).toBeTruthy();
    });

    it('invalid JSON is 400 with a GraphQL error body', async () => {
      const { post } = await serve(transport);
      for (const accept of ['application/json', RESPONSE_TYPE]) {
        const response = await post('{"query": ', { accept });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toContain(accept);
        const body = (await response.json()) as { errors: Array<{ message: string }> };
        expect(body.errors[0]!.message).toBe('POST body sent invalid JSON.');
      }
    });

    it('what is no GraphQL request is 400 or 415 with a message, never 500, and quotes nothing it was sent', async () => {
      const t = await gatewayOver(transport);
      const payToken = 'tok_secret_0123456789';
      const cases: Array<[string, RequestInit, number, RegExp]> = [
        ['/graphql?query=%7B__typename%7D&variables=notjson', {}, 400, /variables or extensions .* not valid JSON/u],
        ['/graphql?query=%7B__typename%7D&extensions=%7B', {}, 400, /variables or extensions .* not valid JSON/u],
        ['/graphql', {}, 400, /must provide query string/iu],
        ['/graphql', { method: 'POST', body: `{"query": "{ __typename }", "variables": {"t": "${payToken}` , headers: { 'content-type': 'application/json' } }, 400, /^POST body sent invalid JSON\.$/u],
        // Bytes, not a string: fetch would call a string text/plain.
        ['/graphql', { method: 'POST', body: new TextEncoder().encode('{"query": "{ __typename }"}') }, 415, /needs content-type: application\/json/u],
      ];
      for (const accept of ['application/json', RESPONSE_TYPE]) {
        for (const [path, init, status, message] of cases) {
          const response = await t.request(path, { ...init, headers: { accept, ...(init.headers as Record<string, string>) } });
          const text = await response.text();
          expect({ path, accept, status: response.status }).toEqual({ path, accept, status });
          expect(JSON.parse(text).errors[0].message).toMatch(message);
          expect(text).not.toContain(payToken);
        }
      }
    });

    it("a variable that fails to coerce is worded by graphql-js, naming the variable and the field's path", async () => {
      const t = await gatewayOver(transport);
      const query = 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }';
      // Twice: the first on yoga's path, the second on the fast JSON path once the document is cached.
      for (let i = 0; i < 2; i++) {
        const res = await t.gql(query, { i: { ...VALID_ORDER, font: true } });
        expect(res.data).toBeUndefined();
        // graphql-jit said `Variable "$font" got invalid value true`, a variable the operation does not have.
        expect(res.errors?.map((e) => e.message)).toEqual(['Variable "$i" got an invalid value at "i.font"; String cannot represent a non string value.']);
        expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      }
    });

    it('the error of a variable that fails to coerce never quotes what was sent (a payToken, a card token, an email)', async () => {
      const t = await gatewayOver(transport);
      const pay = 'mutation ($i: PayInput!) { payOrder(orderNumber: "1001", input: $i) { __typename } }';
      const create = 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }';
      for (let i = 0; i < 2; i++) {
        const missing = await t.gql(pay, { i: { t: 'SECRET-PAYTOKEN-123', token: 'tok_cardsecret' } });
        expect(missing.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([
          ['Variable "$i" got an invalid value; Field "method" of required type "PayMethod!" was not provided.', 'BAD_USER_INPUT'],
        ]);
        const extra = await t.gql(create, { i: { ...VALID_ORDER, email: 'secret.person@example.com', shoeSize: 9 } });
        expect(JSON.stringify(extra.errors)).not.toContain('secret.person');
        expect(extra.errors?.[0]?.message).toMatch(/^Variable "\$i" got an invalid value; Field "shoeSize" is not defined by type "OrderInput"\./u);
        const wrongType = await t.gql(pay, { i: { t: { nested: 'SECRET-PAYTOKEN-123' }, method: 'VENDOR_CARD' } });
        expect(JSON.stringify(wrongType.errors)).not.toContain('SECRET-PAYTOKEN-123');
      }
    });

    it('a body over MAX_BODY_BYTES is 413, with or without a content-length', async () => {
      const { post, call } = await serve(transport, { MAX_BODY_BYTES: '2048' });
      const big = JSON.stringify({ query: `{ eventInfo } # ${'x'.repeat(3_000)}` });
      const sized = await post(big);
      expect(sized.status).toBe(413);
      expect(((await sized.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(/too large/iu);

      const chunked = await call({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);

      // Just under the limit is fine.
      const fits = await post({ query: `{ eventInfo } # ${'x'.repeat(1_900)}` });
      expect(fits.status).toBe(200);
    });

    it('errors keep yoga\'s status codes: RATE_LIMITED is 429 with Retry-After, shared with REST', async () => {
      const { post, t } = await serve(transport, { RATE_LIMIT_WRITE: '2' });
      const create = (email: string) =>
        post({
          query: 'mutation($input: OrderInput!) { createOrder(input: $input) { __typename } }',
          variables: { input: { ...VALID_ORDER, email } },
        });
      expect((await create('a@example.com')).status).toBe(200);
      expect((await create('b@example.com')).status).toBe(200);
      const third = await create('c@example.com');
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await third.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');

      const rest = await t.request('/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...VALID_ORDER, email: 'd@example.com' }),
      });
      expect(rest.status).toBe(429);
      expect(rest.headers.get('retry-after')).toBeTruthy();
      void t;
    });

    it('masks unexpected errors on the fast path too', async () => {
      const { post, t } = await serve(transport);
      const lookup = { query: '{ order(orderNumber: "1001", payToken: "x") { status } }' };
      // Seen once before, so that over node:http the lookup below runs on the fast path, not yoga's.
      await post(lookup, { accept: 'application/json' });
      await t.gateway.database.destroy();
      const response = await post(lookup, { accept: 'application/json' });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ data: { order: null }, errors: [{ message: 'Unexpected error.', path: ['order'] }] });
      expect(text).not.toMatch(/sqlite|destroy|driver|kysely/iu);
    });
  });
});
