/**
 * Apollo Client 4 with an HttpLink alone, its default: a subscription reaching it is sent over HTTP and asked for in
 * Apollo's multipart protocol (`accept: multipart/mixed;boundary=graphql;subscriptionSpec=1.0, …`). yoga answered
 * that with a bare 406 (a frontend team's review, 2026-12-04); the gateway now speaks the protocol
 * (graphql-server/multipart-subscriptions.ts, docs/graphql.md#subscriptions-over-http-multipart).
 */
import { ApolloClient, HttpLink, InMemoryCache, gql, type TypedDocumentNode } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { startProcess } from '../support/process.ts';
import { openSubscriptions } from '../support/subscriptions-open.ts';
import { createGateway, createManualClock } from '../../src/index.ts';
import { possibleTypesOfSchema } from './support.ts';
import { STREAM_PING_MS } from '../../graphql-server/single-connection-operations.ts';

const doc = (text: TemplateStringsArray) => gql(text) as TypedDocumentNode<any, Record<string, unknown>>;
const CREATE = doc`
  mutation Create($input: OrderInput!) { createOrder(input: $input) { ... on Order { id orderNumber status payToken } } }
`;
const PAY = doc`
  mutation Pay($n: ID!, $t: String!) { payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { ... on PayResult { status } } }
`;
const UPDATES = doc`
  subscription Updates($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { id status } }
`;

const apollo = (uri: string, fetchImpl: typeof fetch = fetch) =>
  new ApolloClient({ link: new HttpLink({ uri, fetch: fetchImpl }), cache: new InMemoryCache({ possibleTypes: possibleTypesOfSchema() }) });

/** What a subscription's observer saw, in order: statuses, then `complete` or the error's message. */
function follow(client: ApolloClient, variables: Record<string, unknown>) {
  const seen: string[] = [];
  const subscription = client.subscribe({ query: UPDATES, variables }).subscribe({
    next: ({ data, error }) => seen.push(error ? `error: ${error.message}` : data!.orderUpdates.status),
    error: (error: Error) => seen.push(`error: ${error.message}`),
    complete: () => seen.push('complete'),
  });
  return { seen, unsubscribe: () => subscription.unsubscribe() };
}

/** A subscription POSTed to `url` asking for `accept` (Apollo's multipart protocol unless told otherwise). */
const subscriptionRequest = (url: string, query: string, accept = 'multipart/mixed;boundary=graphql;subscriptionSpec=1.0') =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });

/** A streamed answer read as text: up to a marker, one chunk, or to its end; `text` is everything read so far. */
function streamOf(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const stream = {
    text: '',
    async until(marker: string): Promise<string> {
      while (!stream.text.includes(marker)) stream.text += decoder.decode((await reader.read()).value);
      return stream.text;
    },
    async next(): Promise<string> {
      const chunk = decoder.decode((await reader.read()).value);
      stream.text += chunk;
      return chunk;
    },
    async toEnd(): Promise<string> {
      for (let step = await reader.read(); !step.done; step = await reader.read()) stream.text += decoder.decode(step.value);
      return stream.text;
    },
    cancel: () => reader.cancel(),
  };
  return stream;
}

describe('Apollo Client 4, HttpLink only: subscriptions in the multipart protocol', () => {
  it('follows an order to its payment over a real server, and its unsubscribe ends the subscription there', async () => {
    // A process as in production, where the end of a cancelled stream's subscription shows in the gauge.
    const server = await startProcess({ DATABASE_URL: ':memory:' });
    afterThisTest(async () => void server.child.kill('SIGTERM'));
    const client = apollo(`${server.url}/graphql`);
    const { data } = await client.mutate({ mutation: CREATE, variables: { input: VALID_ORDER } });
    const order = data!.createOrder;
    const variables = { n: order.orderNumber, t: order.payToken };

    const updates = follow(client, variables);
    await expect.poll(() => updates.seen).toEqual(['AWAITING_PAYMENT']);
    const open = () => openSubscriptions(server.url, 'orderUpdates', 'http');
    expect(await open()).toBe(1);
    await client.mutate({ mutation: PAY, variables });
    await expect.poll(() => updates.seen).toEqual(['AWAITING_PAYMENT', 'RECEIVED']);
    // The event reached the normalised cache too.
    expect((client.cache.extract() as Record<string, unknown>)[`Order:${order.id}`]).toMatchObject({ status: 'RECEIVED' });

    updates.unsubscribe();
    await expect.poll(open, { timeout: 4_000 }).toBe(0);
  });

  it("answers a refused subscription's error to the observer, and the in-memory gateway's dispose() completes a stream", async () => {
    const gateway = await createGateway({ clock: createManualClock() });
    let disposed = false;
    afterThisTest(async () => void (disposed || (await gateway.dispose())));
    const client = apollo('http://localhost/graphql', (input, init) => gateway.fetch(new Request(input as string, init)));
    const { data } = await client.mutate({ mutation: CREATE, variables: { input: VALID_ORDER } });
    const order = data!.createOrder;

    const refused = follow(client, { n: order.orderNumber, t: 'not-the-pay-token' });
    await expect.poll(() => refused.seen.length).toBeGreaterThan(0);
    expect(refused.seen[0]).toMatch(/^error: .*pay ?token/iu);

    const updates = follow(client, { n: order.orderNumber, t: order.payToken });
    await expect.poll(() => updates.seen).toEqual(['AWAITING_PAYMENT']);
    await gateway.dispose();
    disposed = true;
    // The closing boundary: Apollo's observer completes, rather than erring on a cut-off body.
    await expect.poll(() => updates.seen).toEqual(['AWAITING_PAYMENT', 'complete']);
  });

  it('ends a stream at SIGTERM without its closing boundary: not final, so the client may come back', async () => {
    const server = await startProcess({ DATABASE_URL: ':memory:' });
    const stream = streamOf(await fetch(subscriptionRequest(`${server.url}/graphql`, 'subscription { pickupBoard { __typename } }', 'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json;q=0.9')));
    await stream.until('PickupBoardEvent');
    server.child.kill('SIGTERM');
    const text = await stream.toEnd();
    expect(await server.exited).toBe(0);
    expect(text.endsWith('\r\n--graphql')).toBe(true);
    expect(text).not.toContain('--graphql--');
  });

  it('keeps the client\'s order of preference: text/event-stream listed first gets SSE, and the raw parts are well formed', async () => {
    const gateway = await createGateway({ clock: createManualClock() });
    afterThisTest(() => gateway.dispose());
    const ask = (accept: string) => gateway.fetch(subscriptionRequest('http://localhost/graphql', 'subscription { sleeveOptionsChanged { charLimit } }', accept));
    const sse = await ask('text/event-stream, multipart/mixed;boundary=graphql;subscriptionSpec=1.0');
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/u);
    await sse.body!.cancel();
    // Without subscriptionSpec it is yoga's multipart (for @defer), which yoga does not give subscriptions: 406.
    expect((await ask('multipart/mixed')).status).toBe(406);

    const multipart = await ask('multipart/mixed;boundary="graphql";subscriptionSpec="1.0",application/json;q=0.9');
    expect(multipart.headers.get('content-type')).toBe('multipart/mixed;boundary="graphql";subscriptionSpec="1.0"');
    const stream = streamOf(multipart);
    expect(await stream.until('"charLimit"')).toBe('\r\n--graphql\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{"payload":{"data":{"sleeveOptionsChanged":{"charLimit":20}}}}\r\n--graphql');
    await stream.cancel();
  });
  it('sends a heartbeat part (`{}`) every 12 s while no event comes, so proxies keep the stream open', async () => {
    // setInterval only: the gateway's own clock and timers stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    afterThisTest(async () => void vi.useRealTimers());
    const gateway = await createGateway({ clock: createManualClock() });
    afterThisTest(() => gateway.dispose());
    const stream = streamOf(await gateway.fetch(subscriptionRequest('http://localhost/graphql', 'subscription { sleeveOptionsChanged { charLimit } }')));
    await stream.until('"charLimit"');
    const heartbeat = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{}\r\n--graphql';
    vi.advanceTimersByTime(STREAM_PING_MS);
    expect(await stream.next()).toBe(heartbeat);
    vi.advanceTimersByTime(STREAM_PING_MS);
    expect(await stream.next()).toBe(heartbeat);
    await stream.cancel();
  });
});
