/**
 * urql 6 (@urql/core), as a frontend team uses it, against a real server on a real port: queries and mutations
 * over fetchExchange (with urql's document cache), union results told apart by __typename, staff calls with the
 * token in fetchOptions, and subscriptions through subscriptionExchange over graphql-ws (the client urql's docs
 * pair it with), public and staff.
 */
import { cacheExchange, Client, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import type { Client as WsClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { clientServer, countingFetch, waitFor, type ClientServer } from './support.ts';

const OPTIONS = gql`
  query Options { sleeveOptions { sizes fonts threads charLimit } }
`;
const CREATE = gql`
  mutation Create($input: OrderInput!) {
    createOrder(input: $input) {
      __typename
      ... on Order { id ok duplicate orderNumber status payToken }
      ... on ApiError { code field retryable }
    }
  }
`;
const LOOKUP = gql`
  query Lookup($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { id status } }
`;
const COUNTDOWN = gql`
  subscription Countdown($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { orderNumber status secondsLeft final } }
`;
const ORDER_EVENTS = gql`
  subscription Events { orderEvents { id orderNumber status } }
`;

/** An urql client of `live`; subscriptions go through `ws` (graphql-ws), as urql's docs wire it. */
function urql(live: ClientServer, ws: WsClient, adminToken?: string) {
  const counting = countingFetch();
  const client = new Client({
    url: live.httpUrl,
    fetch: counting.fetch,
    fetchOptions: adminToken ? { headers: { authorization: `Bearer ${adminToken}` } } : {},
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, sent: counting.sent };
}

/** Keeps every result's data of `source` from now on; `until` waits for the first kept one it accepts. */
function collect(source: ReturnType<Client['subscription']>) {
  const all: any[] = [];
  const listeners = new Set<(data: any) => void>();
  const { unsubscribe } = source.subscribe((result) => {
    if (!result.data) return;
    all.push(result.data);
    for (const listener of listeners) listener(result.data);
  });
  return {
    all,
    stop: unsubscribe,
    until<R>(take: (data: any) => R | undefined): Promise<R> {
      return waitFor<any, R>((next) => {
        all.forEach(next);
        listeners.add(next);
        return () => listeners.delete(next);
      }, take);
    },
  };
}

describe('urql 6', () => {
  it('queries the options and reads them again from its document cache', async () => {
    const live = await clientServer();
    const { client, sent } = urql(live, live.wsClient());
    const first = await client.query(OPTIONS, {}).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.sleeveOptions).toMatchObject({ sizes: expect.arrayContaining(['13-inch']), charLimit: expect.any(Number) });
    const again = await client.query(OPTIONS, {}).toPromise();
    expect(again.data).toEqual(first.data);
    expect(sent).toEqual(['Options']);
  });

  it('creates an order, and gets a duplicate as the ApiError member of the union', async () => {
    const live = await clientServer();
    const { client } = urql(live, live.wsClient());
    const created = await client.mutation(CREATE, { input: VALID_ORDER }).toPromise();
    expect(created.error).toBeUndefined();
    expect(created.data.createOrder).toMatchObject({ __typename: 'Order', ok: true, duplicate: false, orderNumber: '1001', status: 'AWAITING_PAYMENT' });
    const duplicate = await client.mutation(CREATE, { input: VALID_ORDER }).toPromise();
    expect(duplicate.data.createOrder).toEqual({ __typename: 'ApiError', code: 'DUPLICATE', field: null, retryable: false });
    const invalid = await client.mutation(CREATE, { input: { ...VALID_ORDER, email: 'not an email' } }).toPromise();
    expect(invalid.data.createOrder).toMatchObject({ __typename: 'ApiError', code: 'VALIDATION_FAILED', field: 'email' });
    const { orderNumber, payToken, id } = created.data.createOrder;
    const lookup = await client.query(LOOKUP, { n: orderNumber, t: payToken }).toPromise();
    expect(lookup.data.order).toEqual({ __typename: 'Order', id, status: 'AWAITING_PAYMENT' });
  });

  it('follows a hold over graphql-ws until it is paid, then the stream completes', async () => {
    const live = await clientServer();
    const { client } = urql(live, live.wsClient());
    const created = (await client.mutation(CREATE, { input: VALID_ORDER }).toPromise()).data.createOrder;
    const ticks = collect(client.subscription(COUNTDOWN, { n: created.orderNumber, t: created.payToken }));
    try {
      expect(await ticks.until((data) => data.holdCountdown)).toMatchObject({
        orderNumber: created.orderNumber,
        status: 'AWAITING_PAYMENT',
        secondsLeft: 300,
        final: false,
      });
      await live.rest('POST', `/api/orders/${created.orderNumber}/pay`, { t: created.payToken, method: 'vendor_card' });
      expect(await ticks.until((data) => (data.holdCountdown.final ? data.holdCountdown : undefined))).toMatchObject({ status: 'RECEIVED', final: true });
    } finally {
      ticks.stop();
    }
  });

  it('staff: refused without the token, and with it (fetchOptions, connectionParams) advance and watch orders live', async () => {
    const live = await clientServer();
    const anonymous = urql(live, live.wsClient());
    const refused = await anonymous.client.mutation('mutation { advanceOrder(orderNumber: "1001", status: READY) { status } }', {}).toPromise();
    expect(refused.error?.graphQLErrors[0]?.extensions.code).toBe('UNAUTHORIZED');

    const staff = urql(live, live.wsClient(live.adminToken), live.adminToken);
    const events = collect(staff.client.subscription(ORDER_EVENTS, {}));
    try {
      // orderEvents starts with the next change: attendees' new orders show when the subscription listens.
      for (let i = 0; events.all.length === 0; i++) {
        expect(i, 'orderEvents never started').toBeLessThan(100);
        await live.createOrder({ email: `probe${i}@example.com` });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const { orderNumber, payToken } = await live.createOrder();
      await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
      const moved = await staff.client.mutation('mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { id status } }', { n: orderNumber }).toPromise();
      expect(moved.data.advanceOrder.status).toBe('READY');
      const ready = await events.until(({ orderEvents: e }) => (e.orderNumber === orderNumber && e.status === 'READY' ? e : undefined));
      expect(ready.id).toBe(moved.data.advanceOrder.id);
    } finally {
      events.stop();
    }
  });
});
