/**
 * The GraphQL door over HTTP, through both transports (support/graphql-transports.ts): the production node:http
 * entry on a real socket — the fast JSON POST path and yoga's own node:http path (GET, GraphiQL, other content
 * types) — and the in-memory Fetch handler. They must answer alike, with the body limit, batching refusal and
 * GET-mutation refusal.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS, type Transport, type TransportGateway } from '../support/graphql-transports.ts';

interface Served {
  t: TransportGateway;
  /** A request to /graphql (with `search`) over the transport; a node request has a deadline, so a hang fails fast. */
  call(init?: RequestInit, search?: string): Promise<Response>;
  /** A JSON POST: the fast path, over node:http. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
}

async function serve(transport: Transport, env: Record<string, string> = {}): Promise<Served> {
  const t = await gatewayOver(transport, { env });
  const call = (init: RequestInit = {}, search = '') => t.request(`/graphql${search}`, { ...init, signal: AbortSignal.timeout(5_000) });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    call({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { t, call, post };
}

const QUERY = '{ sleeveOptions { sizes fonts threads charLimit sizeChoices { value image } } eventInfo }';
const JSON_TYPE = 'application/json; charset=utf-8';
const RESPONSE_TYPE = 'application/graphql-response+json';

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

  describe('the fast path answers like yoga\'s own path', () => {
    it('GET /graphql?query= gives the same data as the JSON POST', async () => {
      const { post, call } = await serve(transport);
      const viaPost = (await (await post({ query: QUERY }, { accept: 'application/json' })).json()) as { data: unknown };
      const get = await call({ headers: { accept: 'application/json' } }, `?query=${encodeURIComponent(QUERY)}`);
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe(JSON_TYPE);
      const viaGet = (await get.json()) as { data: unknown };
      expect(viaGet.data).toEqual(viaPost.data);
    });

    it('a syntax error has the same status and body on both paths, for both media types', async () => {
      const { post, call, t } = await serve(transport);
      const body = JSON.stringify({ query: '{ sleeveOptions { ' });
      for (const accept of ['application/json', RESPONSE_TYPE]) {
        const fast = await post(body, { accept });
        // application/graphql+json is JSON to yoga but not to the fast path.
        const slow = await call({ method: 'POST', headers: { 'content-type': 'application/graphql+json', accept }, body });
        const memory = await t.gateway.fetch(
          new Request('http://sleeve.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body }),
        );
        const fastBody = await fast.json();
        expect(fastBody).toMatchObject({ errors: [{ message: expect.stringMatching(/^Syntax Error/u), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
        for (const other of [slow, memory]) {
          expect(other.status).toBe(fast.status);
          expect(other.headers.get('content-type')).toBe(fast.headers.get('content-type'));
          expect(await other.json()).toEqual(fastBody);
        }
        // GraphQL-over-HTTP: 200 for application/json, 400 for application/graphql-response+json.
        expect(fast.status).toBe(accept === 'application/json' ? 200 : 400);
      }
    });

    it('a validation error has the same status and body on both paths', async () => {
      const { post, t } = await serve(transport);
      const body = JSON.stringify({ query: '{ nope }' });
      const fast = await post(body, { accept: RESPONSE_TYPE });
      const memory = await t.gateway.fetch(
        new Request('http://sleeve.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: RESPONSE_TYPE }, body }),
      );
      expect(fast.status).toBe(400);
      expect(memory.status).toBe(fast.status);
      expect(await fast.json()).toEqual(await memory.json());
    });

    // GraphQL over HTTP: no `data` entry under graphql-response+json MUST be 4xx or 5xx, and a variable that fails to
    // coerce SHOULD be 400; under application/json it is 200 (graphql-server/request-errors.ts).
    it.each([
      ['a null for a required variable', { n: null, t: 'x' }],
      ['a variable of the wrong type', { n: '1', t: 5 }],
      ['a required variable left out', { t: 'x' }],
    ])('%s is 400 under graphql-response+json and 200 under application/json, the body alike, on both paths', async (_name, variables) => {
      const { post, t } = await serve(transport);
      const body = JSON.stringify({ query: 'query Look($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', variables });
      const memory = (accept: string) => t.gateway.fetch(new Request('http://sleeve.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body }));
      // Twice each: the first is yoga's, the second the fast path's compiled plan (over node:http).
      for (const [accept, status] of [[RESPONSE_TYPE, 400], [undefined, 400], ['application/json', 200]] as const) {
        const headers: Record<string, string> = accept === undefined ? {} : { accept };
        const answers = [await post(body, headers), await post(body, headers), await memory(accept ?? '*/*')];
        expect(answers.map((answer) => answer.status)).toEqual([status, status, status]);
        const [first, ...rest] = await Promise.all(answers.map((answer) => answer.json()));
        // graphql-js's words and the variable's place in the document (coercion-errors.ts).
        expect(first).toEqual({ errors: [{ message: expect.stringMatching(/^Variable "\$[nt]"/u), locations: [{ line: 1, column: expect.any(Number) }], extensions: { code: 'BAD_USER_INPUT' } }] });
        for (const other of rest) expect(other).toEqual(first);
      }
    });

    it('a body that is not one operation (a batch, null, no query) is refused with 400, as yoga does, not a crash', async () => {
      const { post, t } = await serve(transport);
      const cases: Array<[string, RegExp]> = [
        [JSON.stringify([{ query: '{ eventInfo }' }, { query: '{ eventInfo }' }]), /batching is not supported/iu],
        ['null', /expected to be object/iu],
        ['"{ eventInfo }"', /expected to be object/iu],
        ['{}', /must provide query string/iu],
      ];
      for (const [body, message] of cases) {
        const fast = await post(body, { accept: RESPONSE_TYPE });
        const memory = await t.gateway.fetch(
          new Request('http://sleeve.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: RESPONSE_TYPE }, body }),
        );
        expect(memory.status).toBe(400);
        const memoryBody = (await memory.json()) as { errors: Array<{ message: string }> };
        expect(memoryBody.errors[0]!.message).toMatch(message);
        expect({ body, status: fast.status }).toEqual({ body, status: 400 });
        expect(await fast.json()).toEqual(memoryBody);
      }
      // The server is still answering.
      expect((await post({ query: '{ eventInfo }' })).status).toBe(200);
    });

    it('the body limit holds on yoga\'s path too (another JSON content type)', async () => {
      const { call } = await serve(transport, { MAX_BODY_BYTES: '2048' });
      const big = JSON.stringify({ query: `{ eventInfo } # ${'x'.repeat(3_000)}` });
      const response = await call({ method: 'POST', headers: { 'content-type': 'application/graphql+json' }, body: big });
      expect(response.status).toBe(413);
    });
  });

  describe('yoga\'s own features over the socket', () => {
    it('serves GraphiQL at GET /graphql for a browser', async () => {
      const { call } = await serve(transport);
      const response = await call({ headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/u);
      const html = await response.text();
      expect(html).toMatch(/<title>Sleeve Gateway<\/title>/u);
      expect(html).toMatch(/graphiql/iu);
    });

    it('refuses a mutation sent by GET', async () => {
      const { call, t } = await serve(transport);
      const mutation = `mutation { createOrder(input: {
        email: "ada@example.com", name: "Ada Lovelace", size: "13-inch", font: "Block", thread: "Gold", stitchText: "ADA"
      }) { __typename } }`;
      const response = await call({ headers: { accept: 'application/json' } }, `?query=${encodeURIComponent(mutation)}`);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      const body = (await response.json()) as { errors: Array<{ message: string }> };
      expect(body.errors[0]!.message).toMatch(/mutation operation from a POST request/u);
      // Nothing was created.
      const lookup = await t.rest('POST', '/api/orders', VALID_ORDER);
      expect(lookup.status).toBe(201);
    });

    it('refuses other methods with 405', async () => {
      const { call } = await serve(transport);
      // Not PUT: it reserves a stream of graphql-sse's single connection mode (sse-single-connection.test.ts).
      const response = await call({ method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ eventInfo }' }) });
      expect(response.status).toBe(405);
    });
  });
});
