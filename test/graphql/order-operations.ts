/** The order operations the GraphQL door's suites send (orders.test.ts, operation-limits.test.ts), and their callers. */
import { expect } from 'vitest';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';

/** What both operations ask of an Order (a fragment, as a client's would be). */
const ORDER_FIELDS = /* GraphQL */ `
  fragment OrderFields on Order {
    orderNumber
    status
    holdUntil
    holdUntilText
    secondsLeft
    payUrl
    payToken
    reason
    order { size font thread stitchText status }
    message
    nextAction
  }
`;

export const CREATE = /* GraphQL */ `
  mutation Create($input: OrderInput!) {
    createOrder(input: $input) {
      __typename
      ... on Order {
        payLabel
        ...OrderFields
      }
      ... on ApiError {
        code
        field
        error
        retryable
        reason
        # Order.order (the sleeve) and ApiError.order (the existing order) differ in type: alias one of them.
        existing: order { orderNumber status payToken holdUntil secondsLeft }
      }
    }
  }
  ${ORDER_FIELDS}
`;

export const LOOKUP = /* GraphQL */ `
  query Lookup($orderNumber: ID!, $payToken: String!) {
    order(orderNumber: $orderNumber, payToken: $payToken) {
      ...OrderFields
    }
  }
  ${ORDER_FIELDS}
`;

export const PAY = /* GraphQL */ `
  mutation Pay($orderNumber: ID!, $input: PayInput!) {
    payOrder(orderNumber: $orderNumber, input: $input) {
      __typename
      ... on PayResult { orderNumber status alreadyPaid message nextAction order { status payToken holdUntil } }
      ... on ApiError { code field error retryable reason }
    }
  }
`;

export async function createOrder(t: TestGateway, input: Record<string, unknown> = VALID_ORDER) {
  const result = await t.gql(CREATE, { input });
  expect(result.errors).toBeUndefined();
  return result.data.createOrder;
}

export async function createdOrder(t: TestGateway, input: Record<string, unknown> = VALID_ORDER) {
  const order = await createOrder(t, input);
  expect(order.__typename).toBe('Order');
  return order as { orderNumber: string; payToken: string; holdUntil: string };
}
