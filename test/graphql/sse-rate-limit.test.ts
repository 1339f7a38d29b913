/**
 * A rate limit over graphql-sse (docs/edge.md#graphql-sse), with graphql-sse's own client on a real port: the
 * operation's answer is an event carrying RATE_LIMITED with retryAfter, then its end, in both modes, as over HTTP
 * and graphql-ws. It was an HTTP 429 on the operation's request, which the client takes for a failed connection:
 * one with no retries got "Server responded with 429" and no code, and the README's (retrying for ever) retried in
 * silence, so a pay page at a venue rush showed a spinner that never ended (a frontend review).
 */
import { createClient } from 'graphql-sse';
import { describe, expect, it } from 'vitest';
import { answeredAsEvents } from '../../graphql-server/use-rate-limit.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { follow, singleConnectionClient, type SingleConnectionClient } from '../support/sse-single-connection.ts';

/** A create, counted against the address's write limit (the options count against none: docs/edge.md#options-reads). */
const create = (i: number) => ({ query: 'mutation ($input: OrderInput!) { createOrder(input: $input) { __typename } }', variables: { input: { ...VALID_ORDER, email: `sse${i}@example.com` } } });

function distinctConnectionsClient(url: string): SingleConnectionClient {
  const client = createClient({ url, retryAttempts: 0 });
  afterThisTest(async () => client.dispose());
  return client as unknown as SingleConnectionClient;
}

describe('a rate limit over graphql-sse', () => {
  it.each([
    ['distinct connections', distinctConnectionsClient],
    ['single connection', (url: string) => singleConnectionClient(url)],
  ])('reaches the app in the %s mode as RATE_LIMITED with retryAfter, then the operation ends', async (_mode, clientFor) => {
    const t = await liveServer({ env: { RATE_LIMIT_WRITE: '1' } });
    const client = clientFor(`${t.server.url}/graphql`);
    expect(await follow(client, create(1)).done).toEqual([{ data: { createOrder: { __typename: 'Order' } } }]);
    const [refused, ...more] = await follow(client, create(2)).done;
    expect(more).toEqual([]);
    expect(refused).toEqual({
      errors: [{ message: 'Too many requests. Wait a moment, then try again.', extensions: { code: 'RATE_LIMITED', retryable: true, retryAfter: expect.any(Number) } }],
    });
    expect((refused!.errors![0]!.extensions as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('keeps HTTP 429 and Retry-After for every client that takes a JSON answer', async () => {
    const t = await liveServer({ env: { RATE_LIMIT_WRITE: '1' } });
    // urql's fetch asks for JSON and text/event-stream alike: yoga answers it JSON, so it keeps the status.
    const ask = (accept: string, i: number) => fetch(`${t.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(create(i)) });
    expect((await ask('application/graphql-response+json, application/json, text/event-stream, multipart/mixed', 1)).status).toBe(200);
    const refused = await ask('application/graphql-response+json, application/json, text/event-stream, multipart/mixed', 2);
    expect([refused.status, refused.headers.get('content-type')?.split(';')[0], Number(refused.headers.get('retry-after')) >= 1]).toEqual([429, 'application/graphql-response+json', true]);
  });

  it.each([
    ['text/event-stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['text/*', true],
    ['application/json, text/event-stream', false],
    ['text/event-stream, */*', false],
    ['application/*, text/event-stream', false],
    ['', false],
  ])('reads accept %j as answered by events: %s', (accept, events) => {
    expect(answeredAsEvents(accept)).toBe(events);
  });
});
