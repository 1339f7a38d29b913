// graphql-sse in its single connection mode: one stream, reserved with PUT, carries every operation (queries and
// mutations too), whichever instance behind one address each request reaches. Without `singleConnection` it opens a
// stream per operation instead. Node 20 has fetch and ReadableStream built in. npm install graphql-sse
import { createClient } from 'graphql-sse';

const GATEWAY = process.env.GATEWAY_URL ?? 'http://localhost:4000';
// A dropped stream is opened again and its subscriptions resubscribed, each starting with the current state: for
// ever (graphql-sse gives up after five tries, about 40 s), waiting at most 10 s between tries.
const retry = (tries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 1_000 * 2 ** tries) * (0.5 + Math.random() / 2)));
const client = createClient({ url: `${GATEWAY}/graphql`, singleConnection: true, retryAttempts: Infinity, retry });

/** A query or a mutation: its one result. */
const once = (request) =>
  new Promise((resolve, reject) => {
    let result;
    client.subscribe(request, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
  });

const { data } = await once({
  query: `mutation ($input: OrderInput!) {
    createOrder(input: $input) { ... on Order { orderNumber payToken status } ... on ApiError { code error } }
  }`,
  variables: { input: { email: `sse-${Date.now()}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
});
const { orderNumber, payToken, status } = data.createOrder;
console.log('created', orderNumber, status);

let ticks = 0;
const unsubscribe = client.subscribe(
  {
    query: `subscription ($n: ID!, $t: String!) {
      holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft status }
    }`,
    variables: { n: orderNumber, t: payToken },
  },
  {
    next: ({ data }) => {
      console.log('tick', data.holdCountdown.secondsLeft, data.holdCountdown.status);
      if (++ticks === 2) unsubscribe(); // sends the operation's DELETE
    },
    error: (error) => console.error(error),
    // Once that DELETE is answered: disposing the client before would cut it, and graphql-sse then rejects a promise
    // nobody holds (an unhandled rejection ends a Node process).
    complete: () => client.dispose(),
  },
);
