/**
 * The GraphQL door over HTTP, through both transports (support/graphql-transports.ts): the fast JSON POST path
 * answers as yoga's own node:http path does (GET, syntax and validation errors, batches, the body limit), and yoga's
 * own features hold over the socket (GraphiQL, GET-mutation refusal, other methods). The fast path's own checks are
 * in http-transport.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { TRANSPORTS } from '../support/graphql-transports.ts';
import { JSON_TYPE, QUERY, RESPONSE_TYPE, serve } from './http-serve.ts';

describe.each(TRANSPORTS)('over %s', (transport) => {
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
