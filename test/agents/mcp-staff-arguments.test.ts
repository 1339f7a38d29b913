/**
 * The staff tools' arguments as an outside agent developer sent them: a status advance_order does not take is
 * refused naming only the two it takes (it listed all six, collected and cancelled among them), and `after: null`
 * from a client that sends null for an argument left out is no cursor (it was "after must be a string", after a page
 * of `first: 0` answered `endCursor: null`).
 */
import { expect, it } from 'vitest';
import { liveServer } from '../support/live-server.ts';
import { mcpClient } from './mcp-support.ts';

const ADMIN = 'mcp-admin-token-7c4a8d09ca3762af';

it('refuses a status advance_order does not take by naming the two it does, and takes null as an absent cursor', async () => {
  const live = await liveServer({ env: { ADMIN_TOKEN: ADMIN } });
  const { orderNumber, payToken } = await live.createOrder();
  expect((await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
  const staff = await mcpClient(live.server.url, { headers: { authorization: `Bearer ${ADMIN}` } });

  const refused = await staff.call('advance_order', { orderNumber, status: 'READY' });
  expect(refused.structuredContent).toMatchObject({ ok: false, code: 'bad_request', field: 'status', error: 'status must be one of: in progress, ready (collect_order hands an order over, cancel_order cancels it).' });

  const empty = await staff.call('list_orders', { first: 0 });
  expect(empty.structuredContent.pageInfo).toMatchObject({ hasNextPage: true, endCursor: null });
  const listed = await staff.call('list_orders', { first: 10, after: empty.structuredContent.pageInfo.endCursor, status: null });
  expect(listed.isError).toBeUndefined();
  expect(listed.structuredContent.orders).toEqual([expect.objectContaining({ orderNumber })]);
});
