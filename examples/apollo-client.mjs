// Apollo Client 4 without React: HTTP for queries and mutations, graphql-ws for subscriptions, and a normalised
// cache keyed by every object's global `id`; `possibleTypes` names the two unions' members, which
// the cache needs to match `... on Order` and `... on ApiError`. npm install @apollo/client rxjs graphql-ws ws
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const GATEWAY = process.env.GATEWAY_URL ?? 'http://localhost:4000';
// Waits between tries grow to at most 10 s: graphql-ws's own double without end (64 s, 128 s, … after a long outage).
const retryWait = (tries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 1_000 * 2 ** tries) * (0.5 + Math.random() / 2)));
const ws = createClient({ url: GATEWAY.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, shouldRetry: () => true, retryAttempts: Infinity, retryWait });

const isSubscription = ({ query }) => {
  const definition = getMainDefinition(query);
  return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
};
const client = new ApolloClient({
  link: ApolloLink.split(isSubscription, new GraphQLWsLink(ws), new HttpLink({ uri: `${GATEWAY}/graphql` })),
  cache: new InMemoryCache({
    possibleTypes: { CreateOrderResult: ['Order', 'ApiError'], PayOrderResult: ['PayResult', 'ApiError'] },
    // Parts of an object with no id of their own: what two queries ask of them is merged, not replaced.
    typePolicies: { OrderedSleeve: { merge: true }, PaymentCard: { merge: true } },
  }),
});

// createOrder answers a union: an Order, or an ApiError saying why not (a duplicate email, a rule broken).
const { data } = await client.mutate({
  mutation: gql`mutation Create($input: OrderInput!) {
    createOrder(input: $input) {
      __typename
      ... on Order { id orderNumber payToken status secondsLeft }
      ... on ApiError { code error field }
    }
  }`,
  variables: { input: { email: `apollo-${Date.now()}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
});
if (data.createOrder.__typename === 'ApiError') throw new Error(data.createOrder.error);
const { id, orderNumber, payToken } = data.createOrder;
console.log('created', orderNumber, data.createOrder.status);

// The order's changes land in the cache under its id: every query showing this order updates by itself.
const payOrder = gql`mutation Pay($n: ID!, $t: String!) {
  payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { __typename ... on PayResult { order { id status } } ... on ApiError { code error } }
}`;
const updates = client
  .subscribe({
    query: gql`subscription Updates($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { id status } }`,
    variables: { n: orderNumber, t: payToken },
  })
  .subscribe(({ data: event }) => {
    // The first event is the order as it is now; pay it, and the next event says so.
    if (event.orderUpdates.status === 'AWAITING_PAYMENT') return void client.mutate({ mutation: payOrder, variables: { n: orderNumber, t: payToken } });
    const cached = client.cache.readFragment({ id: client.cache.identify({ __typename: 'Order', id }), fragment: gql`fragment Status on Order { status }` });
    console.log('cached status', cached.status);
    updates.unsubscribe();
    ws.dispose();
  });
