/**
 * Apollo Client 4, as a frontend team uses it, against a real server on a real port: HTTP for queries and
 * mutations, graphql-ws for subscriptions (split by operation type), and a normalised InMemoryCache with NO type
 * policies — only `possibleTypes`, derived from the schema. Orders normalise by their global `id`
 * (docs/graphql.md#object-identity), so one cached order is updated by whatever brings it: a lookup, a duplicate's
 * ApiError, a staff move, a subscription event.
 */
import { ApolloClient, HttpLink, InMemoryCache, split, gql, type ApolloLink, type TypedDocumentNode } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { OperationTypeNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { clientServer, countingFetch, possibleTypesOfSchema, waitFor, type ClientServer } from './support.ts';

/** Untyped results: these tests read them as JSON (a project would generate the types, README "Frontend apps"). */
const doc = (text: TemplateStringsArray) => gql(text) as TypedDocumentNode<any, Record<string, unknown>>;

const CREATE = doc`
  mutation Create($input: OrderInput!) {
    createOrder(input: $input) {
      __typename
      ... on Order { id ok duplicate orderNumber status payToken holdUntilText }
      ... on ApiError { code error retryable existing: order { id orderNumber status } }
    }
  }
`;
const LOOKUP = doc`
  query Lookup($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { id orderNumber status message } }
`;
const PAY = doc`
  mutation Pay($n: ID!, $t: String!) {
    payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { ... on PayResult { status alreadyPaid } ... on ApiError { code } }
  }
`;
const UPDATES = doc`
  subscription Updates($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { id status message } }
`;
const STAFF_QUEUE = doc`
  query Queue { orders(first: 50) { edges { node { id orderNumber status } } } }
`;
const ORDER_EVENTS = doc`
  subscription Events { orderEvents { id status } }
`;
const ADVANCE = doc`
  mutation Advance($n: ID!, $s: OrderStatus!) { advanceOrder(orderNumber: $n, status: $s) { id status } }
`;
const BY_ID = doc`
  query ById($id: ID!) { node(id: $id) { ... on Node { id } ... on Order { status email } } }
`;
const OPTIONS = doc`
  query Options { sleeveOptions { id version charLimit } }
`;
const OPTIONS_CHANGED = doc`
  subscription OptionsChanged { sleeveOptionsChanged { id version charLimit } }
`;
const UPDATE_OPTIONS = doc`
  mutation UpdateOptions($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { id version } }
`;

interface Made {
  client: ApolloClient;
  sent: string[];
}

/** An Apollo client of `live`: HttpLink (with a counting fetch) and GraphQLWsLink, split on subscriptions. */
function apollo(live: ClientServer, adminToken?: string): Made {
  const counting = countingFetch();
  const headers: Record<string, string> = adminToken ? { authorization: `Bearer ${adminToken}` } : {};
  const http = new HttpLink({ uri: live.httpUrl, headers, fetch: counting.fetch });
  const ws = new GraphQLWsLink(live.wsClient(adminToken));
  const link: ApolloLink = split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === OperationTypeNode.SUBSCRIPTION;
    },
    ws,
    http,
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache({ possibleTypes: possibleTypesOfSchema() }) });
  return { client, sent: counting.sent };
}

/** The cache's entities of one type (Apollo's default keys: `Typename:id`). */
const cached = (client: ApolloClient) => client.cache.extract() as Record<string, Record<string, unknown>>;
const entities = (client: ApolloClient, typename: string) => Object.keys(cached(client)).filter((key) => key.startsWith(`${typename}:`));

async function created(client: ApolloClient, email = VALID_ORDER.email) {
  const { data } = await client.mutate({ mutation: CREATE, variables: { input: { ...VALID_ORDER, email } } });
  return data!.createOrder;
}

describe('Apollo Client 4 with a normalised cache and no type policies', () => {
  it('creates an order (union result), then a lookup and a duplicate land on the same cached Order', async () => {
    const live = await clientServer();
    const { client } = apollo(live);
    const order = await created(client);
    expect(order).toMatchObject({ __typename: 'Order', ok: true, duplicate: false, orderNumber: '1001', status: 'AWAITING_PAYMENT' });
    const key = client.cache.identify(order)!;
    expect(key).toBe(`Order:${order.id}`);
    expect(entities(client, 'Order')).toEqual([key]);

    const { data } = await client.query({ query: LOOKUP, variables: { n: order.orderNumber, t: order.payToken } });
    expect(data!.order).toMatchObject({ id: order.id, status: 'AWAITING_PAYMENT' });
    expect(Object.values(cached(client).ROOT_QUERY!)).toContainEqual({ __ref: key });

    const duplicate = await created(client);
    expect(duplicate).toMatchObject({ __typename: 'ApiError', code: 'DUPLICATE', retryable: false, existing: { id: order.id } });
    // ApiError has no id, so it stays inside the mutation's answer; the order in it is the one cached entity.
    expect(entities(client, 'Order')).toEqual([key]);
    expect(entities(client, 'ApiError')).toEqual([]);
  });

  it('updates the cached order from an orderUpdates event over graphql-ws, with no refetch', async () => {
    const live = await clientServer();
    const attendee = apollo(live);
    const staff = apollo(live, live.adminToken);
    const order = await created(attendee.client);
    const variables = { n: order.orderNumber, t: order.payToken };
    const watched = attendee.client.watchQuery({ query: LOOKUP, variables });
    const statusOf = (next: (status: string) => void) => {
      const subscription = watched.subscribe(({ data }) => data?.order && next(data.order.status));
      return () => subscription.unsubscribe();
    };
    await waitFor(statusOf, (status) => (status === 'AWAITING_PAYMENT' ? status : undefined));
    const events = attendee.client.subscribe({ query: UPDATES, variables }).subscribe(() => {});
    try {
      await attendee.client.mutate({ mutation: PAY, variables });
      // PayResult has no id: the cached order learns that it is paid from the subscription event, not the answer.
      expect(await waitFor(statusOf, (status) => (status === 'RECEIVED' ? status : undefined))).toBe('RECEIVED');
      const sentBefore = [...attendee.sent];
      await staff.client.mutate({ mutation: ADVANCE, variables: { n: order.orderNumber, s: 'IN_PROGRESS' } });
      expect(await waitFor(statusOf, (status) => (status === 'IN_PROGRESS' ? status : undefined))).toBe('IN_PROGRESS');
      expect(attendee.sent).toEqual(sentBefore);
      expect(attendee.sent).toEqual(['Create', 'Lookup', 'Pay']);
      expect(cached(attendee.client)[`Order:${order.id}`]).toMatchObject({ status: 'IN_PROGRESS' });
    } finally {
      events.unsubscribe();
    }
  });

  it("updates staff's cached queue from orderEvents (staff token in connectionParams) when an attendee pays", async () => {
    const live = await clientServer();
    const attendee = apollo(live);
    const staff = apollo(live, live.adminToken);
    const order = await created(attendee.client);
    const queue = staff.client.watchQuery({ query: STAFF_QUEUE });
    const statusInQueue = (next: (status: string) => void) => {
      const subscription = queue.subscribe(({ data }) => {
        const node = data?.orders.edges.find((e: { node: { orderNumber: string } }) => e.node.orderNumber === order.orderNumber)?.node;
        if (node) next(node.status);
      });
      return () => subscription.unsubscribe();
    };
    await waitFor(statusInQueue, (status) => (status === 'AWAITING_PAYMENT' ? status : undefined));
    let eventsSeen = 0;
    const events = staff.client.subscribe({ query: ORDER_EVENTS }).subscribe(() => eventsSeen++);
    try {
      // orderEvents starts with the next change, not the current state: other attendees' orders show when it listens.
      for (let i = 0; eventsSeen === 0; i++) {
        expect(i, 'orderEvents never started').toBeLessThan(100);
        await live.createOrder({ email: `probe${i}@example.com` });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await attendee.client.mutate({ mutation: PAY, variables: { n: order.orderNumber, t: order.payToken } });
      expect(await waitFor(statusInQueue, (status) => (status === 'RECEIVED' ? status : undefined))).toBe('RECEIVED');
      expect(staff.sent).toEqual(['Queue']);
    } finally {
      events.unsubscribe();
    }
  });

  it("updates an attendee's cached options from sleeveOptionsChanged over graphql-ws, with no refetch", async () => {
    const live = await clientServer();
    const attendee = apollo(live);
    const staff = apollo(live, live.adminToken);
    const watched = attendee.client.watchQuery({ query: OPTIONS });
    const limitShown = (next: (charLimit: number) => void) => {
      const subscription = watched.subscribe(({ data }) => data?.sleeveOptions && next(data.sleeveOptions.charLimit));
      return () => subscription.unsubscribe();
    };
    expect(await waitFor(limitShown, (limit) => limit)).toBe(20);
    let eventsSeen = 0;
    const events = attendee.client.subscribe({ query: OPTIONS_CHANGED }).subscribe(() => eventsSeen++);
    const publish = (charLimit: number) =>
      staff.client.mutate({ mutation: UPDATE_OPTIONS, variables: { input: { charLimit, sizes: [{ value: '13-inch' }], fonts: [{ value: 'Block' }], threads: [{ value: 'Gold' }] } } });
    try {
      // The subscription starts with the next set: publish until one arrives, then the one the test watches for.
      for (let i = 0; eventsSeen === 0; i++) {
        expect(i, 'sleeveOptionsChanged never started').toBeLessThan(100);
        await publish(30);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await publish(42);
      expect(await waitFor(limitShown, (limit) => (limit === 42 ? limit : undefined))).toBe(42);
      expect(attendee.sent).toEqual(['Options']);
      expect(entities(attendee.client, 'SleeveOptions')).toEqual(['SleeveOptions:SleeveOptions']);
    } finally {
      events.unsubscribe();
    }
  });

  it('reads an order by id with node and a Node fragment (possibleTypes), staff only', async () => {
    const live = await clientServer();
    const attendee = apollo(live);
    const staff = apollo(live, live.adminToken);
    const order = await created(attendee.client);
    const seen = await staff.client.query({ query: BY_ID, variables: { id: order.id } });
    expect(seen.data!.node).toEqual({ __typename: 'Order', id: order.id, status: 'AWAITING_PAYMENT', email: VALID_ORDER.email });
    // Read back from the cache alone: the `... on Node` fragment matches an Order only through possibleTypes.
    const fromCache = staff.client.readQuery({ query: BY_ID, variables: { id: order.id } });
    expect(fromCache!.node).toMatchObject({ id: order.id, status: 'AWAITING_PAYMENT' });
    const anonymous = await attendee.client.query({ query: BY_ID, variables: { id: order.id }, fetchPolicy: 'network-only' });
    expect(anonymous.data!.node).toBeNull();
  });
});
