/**
 * A held order's `nextAction` says how each door takes the payToken, and an agent follows it word for word. It said
 * "the argument payToken in GraphQL", and payOrder answered `Unknown argument "payToken"` (an outside agent review,
 * 2026-12-04): payOrder takes it as its input's `t`. Here the sentence is followed as written, through GraphQL.
 */
import { expect, it } from 'vitest';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';

it("names the payToken as GraphQL's payOrder takes it, and payOrder written that way pays", async () => {
  const t = await testGateway();
  const created = await t.gql('mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber payToken nextAction } } }', { input: VALID_ORDER });
  const { orderNumber, payToken, nextAction } = created.data.createOrder as { orderNumber: string; payToken: string; nextAction: string };
  expect(nextAction).toContain("the field t of the REST pay body and of GraphQL payOrder's input");
  expect(nextAction).not.toMatch(/argument payToken in GraphQL/u);

  const paid = await t.gql('mutation ($n: ID!, $t: String!) { payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { ... on PayResult { status } ... on ApiError { code } } }', { n: orderNumber, t: payToken });
  expect(paid.errors).toBeUndefined();
  expect(paid.data.payOrder).toEqual({ status: 'RECEIVED' });
});
