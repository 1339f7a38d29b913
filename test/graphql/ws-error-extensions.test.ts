/**
 * Errors over graphql-ws carry what a socket client can use and nothing meant for an HTTP response: `extensions.http`
 * (a status and headers yoga turns into the HTTP answer, and strips from the body there) is not sent on a socket,
 * and a RATE_LIMITED error says when to come back as `retryAfter`, since a socket has no Retry-After header. A syntax
 * error has the code yoga gives it over HTTP (GRAPHQL_PARSE_FAILED), which yoga adds only when there is a request.
 */
import type { Client } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';

type WireError = { message: string; extensions?: Record<string, unknown> };

/** One operation over the socket: the errors of its `next` result, or those of its `error` message. */
function errorsOf(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<WireError[]> {
  return new Promise((resolve, reject) => {
    client.subscribe(
      { query, variables },
      {
        next: (value) => resolve((value.errors ?? []) as WireError[]),
        error: (error) => (Array.isArray(error) ? resolve(error as WireError[]) : reject(error)),
        complete: () => resolve([]),
      },
    );
  });
}

const CREATE = 'mutation ($input: OrderInput!) { createOrder(input: $input) { __typename } }';

describe('errors over graphql-ws', () => {
  it('RATE_LIMITED says retryAfter in seconds and carries no extensions.http', async () => {
    const t = await liveServer({ env: { RATE_LIMIT_WRITE: '1' } });
    const client = t.client();
    expect(await errorsOf(client, CREATE, { input: { ...VALID_ORDER, email: 'w1@example.com' } })).toEqual([]);
    const [refused, ...others] = await errorsOf(client, CREATE, { input: { ...VALID_ORDER, email: 'w2@example.com' } });
    expect(others).toEqual([]);
    expect(refused!.extensions).toEqual({ code: 'RATE_LIMITED', retryable: true, retryAfter: expect.any(Number) });
    expect(refused!.extensions!.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('a refusal before execution (introspection in production) carries no extensions.http either', async () => {
    const t = await liveServer({ env: { GRAPHQL_PRODUCTION: 'on' } });
    const errors = await errorsOf(t.client(), '{ __schema { queryType { name } } }');
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.extensions ?? {}).not.toHaveProperty('http');
    expect(errors[0]!.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });

  it("a subscription's variable that fails to coerce is BAD_USER_INPUT and never quotes the value (a payToken), over the socket and SSE", async () => {
    const t = await liveServer();
    const { orderNumber } = await t.createOrder();
    const secret = 'SECRET-PAYTOKEN-0123456789';
    const query = 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }';
    const variables = { n: orderNumber, t: { payToken: secret } };
    const expected = [{ message: 'Variable "$t" got an invalid value; String cannot represent a non string value.', extensions: { code: 'BAD_USER_INPUT' } }];
    expect(await errorsOf(t.client(), query, variables)).toMatchObject(expected);
    const sse = await fetch(`${t.server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables }),
    });
    const text = await sse.text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(/^data: (.*)$/mu.exec(text)![1]!).errors).toMatchObject(expected);
  });

  it('a syntax error carries GRAPHQL_PARSE_FAILED, as over HTTP', async () => {
    const t = await liveServer();
    for (const query of ['{ sleeveOptions { ', `{ sleeveOptions { ${'sizes '.repeat(2100)}} }`]) {
      const [error, ...others] = await errorsOf(t.client(), query);
      expect(others).toEqual([]);
      expect(error!.message).toMatch(/^Syntax Error/u);
      expect(error!.extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
    }
  });
});
