// A hold countdown over graphql-ws, on Node 20 or in a browser. npm install graphql-ws ws
import { createClient } from 'graphql-ws';
import WebSocket from 'ws'; // Node 20 has no global WebSocket; a browser needs no webSocketImpl

const GATEWAY = process.env.GATEWAY_URL ?? 'http://localhost:4000';

// An order to watch: createOrder answers its orderNumber and the payToken that reads it.
const response = await fetch(`${GATEWAY}/graphql`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    query: `mutation ($input: OrderInput!) {
      createOrder(input: $input) { ... on Order { orderNumber payToken } ... on ApiError { code error } }
    }`,
    variables: { input: { email: `ws-${Date.now()}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
  }),
});
const { orderNumber, payToken } = (await response.json()).data.createOrder;

// Waits between tries grow to at most 10 s: graphql-ws's own double without end (64 s, 128 s, … after a long outage).
const retryWait = (tries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 1_000 * 2 ** tries) * (0.5 + Math.random() / 2)));

const client = createClient({
  url: GATEWAY.replace(/^http/, 'ws') + '/graphql',
  webSocketImpl: WebSocket,
  // Keep trying through a restart of the gateway (by default graphql-ws gives up on a closed socket); every stream
  // starts with the current state, so the first event after a reconnect is right again.
  shouldRetry: () => true,
  retryAttempts: Infinity,
  retryWait,
});

let ticks = 0;
const unsubscribe = client.subscribe(
  {
    query: `subscription ($n: ID!, $t: String!) {
      holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft status final }
    }`,
    variables: { n: orderNumber, t: payToken },
  },
  {
    next: ({ data }) => {
      console.log('tick', data.holdCountdown.secondsLeft, data.holdCountdown.status);
      if (++ticks === 2) unsubscribe(); // two are enough here; a pay page listens until the `final` tick
    },
    error: (error) => console.error(error),
    complete: () => client.dispose(), // after the final tick, or after unsubscribe

  },
);
