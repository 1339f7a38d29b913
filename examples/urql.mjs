// urql (core, no framework): queries and mutations over HTTP, subscriptions over graphql-ws.
// npm install @urql/core graphql-ws ws
import { Client, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';

const GATEWAY = process.env.GATEWAY_URL ?? 'http://localhost:4000';
// Waits between tries grow to at most 10 s: graphql-ws's own double without end (64 s, 128 s, … after a long outage).
const retryWait = (tries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 1_000 * 2 ** tries) * (0.5 + Math.random() / 2)));
const ws = createWsClient({ url: GATEWAY.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, shouldRetry: () => true, retryAttempts: Infinity, retryWait });

const client = new Client({
  url: `${GATEWAY}/graphql`,
  exchanges: [
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
      }),
    }),
  ],
});

const options = await client.query(gql`{ sleeveOptions { sizes fonts threads charLimit } }`, {}).toPromise();
console.log('sizes', options.data.sleeveOptions.sizes.join(', '));

const created = await client
  .mutation(
    gql`mutation ($input: OrderInput!) {
      createOrder(input: $input) {
        ... on Order { id orderNumber payToken status }
        ... on ApiError { code error field }
      }
    }`,
    { input: { email: `urql-${Date.now()}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
  )
  .toPromise();
const order = created.data.createOrder;
console.log('created', order.orderNumber, order.status);

// The order's changes, live: the first event is the order as it is now.
const { unsubscribe } = client
  .subscription(
    gql`subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { id status } }`,
    { n: order.orderNumber, t: order.payToken },
  )
  .subscribe((result) => {
    console.log('update', result.data.orderUpdates.status);
    unsubscribe();
    ws.dispose();
  });
