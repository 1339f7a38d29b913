/**
 * The README example ("Testing against it"), as it is there but for the import: the whole gateway in memory (no
 * port, no files), a clock you move by hand, and GraphQL through `gateway.fetch`. test/package/readme-example.test.ts
 * holds the two to each other; test/package/pack-install.test.ts runs the README's copy against the packed package.
 */
import { afterEach, expect, it } from 'vitest';
import { createGateway, createManualClock, type Gateway } from '../src/index.ts';

let gateway: Gateway;
afterEach(() => gateway.dispose());

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await gateway.fetch(
    new Request('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await response.json()) as { data: any; errors?: unknown };
}

it('an unpaid order is cancelled when its 5-minute hold runs out', async () => {
  const clock = createManualClock();
  gateway = await createGateway({ clock });

  const { data: created } = await graphql(
    `mutation ($input: OrderInput!) {
      createOrder(input: $input) {
        ... on Order { orderNumber status payToken holdUntilText message }
        ... on ApiError { code error }
      }
    }`,
    { input: { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
  );
  const { orderNumber, payToken } = created.createOrder;
  expect(created.createOrder.status).toBe('AWAITING_PAYMENT');

  const lookup = `query ($orderNumber: ID!, $payToken: String!) {
    order(orderNumber: $orderNumber, payToken: $payToken) { status secondsLeft reason }
  }`;
  expect((await graphql(lookup, { orderNumber, payToken })).data.order).toEqual({
    status: 'AWAITING_PAYMENT', secondsLeft: 300, reason: null,
  });

  await clock.advance(5 * 60 * 1000); // fires the hold-expiry timer, as real time would

  expect((await graphql(lookup, { orderNumber, payToken })).data.order).toEqual({
    status: 'CANCELLED', secondsLeft: null, reason: 'not paid within 5 minutes',
  });
});
