/** The staff operations the GraphQL staff suites send (staff, staff-lists), and checks the webhooks suite shares. */
import { expect } from 'vitest';
import type { GqlResult, TestGateway } from '../support/gateway.ts';

export const ORDER_FIELDS = 'orderNumber status name email version createdAt paidAt updatedAt cancelReason collectedBy';

export const ADVANCE = `mutation ($n: ID!, $s: OrderStatus!) { advanceOrder(orderNumber: $n, status: $s) { ${ORDER_FIELDS} } }`;
export const COLLECT = `mutation ($n: ID!, $c: String!) { collectOrder(orderNumber: $n, collectorName: $c) { ${ORDER_FIELDS} } }`;
export const CANCEL = `mutation ($n: ID!, $r: String!) { cancelOrder(orderNumber: $n, reason: $r) { ${ORDER_FIELDS} } }`;
export const ORDERS = /* GraphQL */ `
  query ($status: [OrderStatus!], $first: Int, $after: String) {
    orders(status: $status, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { orderNumber status email } }
    }
  }
`;
export const UPDATE_OPTIONS = /* GraphQL */ `
  mutation ($input: SleeveOptionsInput!) {
    updateSleeveOptions(input: $input) { version sizes fonts threads charLimit threadChoices { value image } }
  }
`;
export const SET_EVENT_INFO = 'mutation ($text: String!) { setEventInfo(text: $text) }';
export const PICKUP = '{ pickupBoard { orderNumber displayName readySince } }';

/** A valid option set unlike the seeded one (sizes, fonts and threads all change). */
export const OPTIONS = {
  sizes: [{ value: '17-inch' }, { value: '13-inch' }],
  fonts: [{ value: 'Block' }],
  threads: [{ value: 'Teal', color: '#008080' }, { value: 'Gold', color: null }],
  charLimit: 12,
};

/** The code of a result's first error, failing the test when it has none. */
export function codeOf(result: GqlResult<unknown>) {
  expect(result.errors, 'expected an error').toBeDefined();
  return result.errors![0]!.extensions?.code;
}

/** Orders and staff calls on the gateway `gateway()` answers when each is sent (a suite's beforeEach makes a new one). */
export function staffRequests(gateway: () => TestGateway) {
  let seq = 0;
  const create = (change: Record<string, unknown> = {}) => gateway().createOrder({ email: `g${++seq}@example.com`, ...change });

  /** A new order paid with the demo card; its number. */
  async function paid(change: Record<string, unknown> = {}): Promise<string> {
    const { orderNumber, payToken } = await create(change);
    const res = await gateway().rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return orderNumber;
  }

  /** The data of `query` sent with the staff token, failing the test on any error. */
  async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const result = await gateway().gql<T>(query, variables, { token: gateway().adminToken });
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data;
  }

  async function advance(n: string, status: string) {
    return (await ok(ADVANCE, { n, s: status })).advanceOrder;
  }

  return { create, paid, ok, advance };
}
