/**
 * The staff tools (docs/agents.md#staff-tools): list orders, move one forward, hand one over, cancel one. Present
 * only on a request carrying the staff bearer token (Authorization: Bearer ADMIN_TOKEN, as the staff GraphQL takes
 * it), so an attendee's agent never sees them; they call the staff service the staff GraphQL fields call.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../rest-compat/errors.ts';
import { DomainError } from '../src/kernel/errors.ts';
import { secretsEqual } from '../src/kernel/tokens.ts';
import type { Order, OrderStatus } from '../src/orders/order.ts';
import { ORDER_STATUSES } from '../src/orders/order.ts';
import { DESCRIPTIONS, TITLES } from './agent-rules.ts';
import type { ToolDeps } from './tool-deps.ts';
import { answer, guarded, type Body } from './tool-results.ts';
import { ADVANCE_INPUT, ADVANCE_STATUSES, advertised, CANCEL_INPUT, COLLECT_INPUT, LIST_ORDERS_INPUT, type RawArgs } from './tool-schemas.ts';

const BEARER = /^Bearer (.+)$/u;

/** Whether the Authorization header names the staff token; constant time, whatever its length. */
export function isStaff(authorization: string | undefined, adminToken: string): boolean {
  const match = authorization ? BEARER.exec(authorization) : null;
  return match !== null && secretsEqual(match[1]!, adminToken);
}

/** The tools registered only on a staff request's server (tools/list leaves them out for anyone else). */
const STAFF_TOOLS: ReadonlySet<string> = new Set(['list_orders', 'advance_order', 'collect_order', 'cancel_order']);

/**
 * The answer to a staff tool called without the staff token, or null for any other message: document 1's
 * `unauthorized`, as REST answers a staff operation. The SDK answered "Tool cancel_order not found", which told a
 * developer who forgot the header nothing (an outside agent review).
 */
export function staffToolRefusal(message: unknown): CallToolResult | null {
  const call = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string' || !STAFF_TOOLS.has(call.params.name)) return null;
  return answer(errorBody(new DomainError('unauthorized', `${call.params.name} is a staff tool: send Authorization: Bearer ADMIN_TOKEN with every request of the session.`)));
}

/** An order as staff see it: who ordered, what, and when it moved. Never a token. */
function staffOrder(order: Order): Body {
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    name: order.name,
    email: order.email,
    order: { ...order.choice },
    createdAt: new Date(order.createdAt).toISOString(),
    paidAt: order.paidAt ? new Date(order.paidAt).toISOString() : null,
    readyAt: order.readyAt ? new Date(order.readyAt).toISOString() : null,
    collectedAt: order.collectedAt ? new Date(order.collectedAt).toISOString() : null,
    collectedBy: order.collectedBy ?? null,
    cancelReason: order.cancelReason ?? null,
  };
}

/** The order after a staff move, with what happened in words ("Order 1001 was cancelled; it is now cancelled" said nothing). */
function changed(order: Order): Body {
  return { ok: true, ...staffOrder(order), message: movedText(order) };
}

function movedText(order: Order): string {
  const n = order.orderNumber;
  if (order.status === 'collected') return `Order ${n} was handed over to ${order.collectedBy ?? 'its owner'}.`;
  if (order.status !== 'cancelled') return `Order ${n} is now ${order.status}.`;
  // A paid order's payment is refunded at once, or by the refund job if the processor does not answer now.
  if (order.paidAt === null) return `Order ${n} is cancelled; it was never paid.`;
  if (order.paymentMethod === 'vendor_card') return `Order ${n} is cancelled; it was paid with the demo card, so nothing was charged.`;
  return `Order ${n} is cancelled; its $1.00 payment is being refunded.`;
}

function text(args: RawArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new DomainError('bad_request', `${name} must be a string.`, { field: name });
  return value;
}

export function registerStaffTools(server: McpServer, { services, logger }: ToolDeps): void {
  const staffAnnotations = { openWorldHint: false } as const;

  server.registerTool('list_orders', { title: TITLES.list_orders, description: DESCRIPTIONS.list_orders, inputSchema: advertised(LIST_ORDERS_INPUT), annotations: { readOnlyHint: true, ...staffAnnotations } }, (args) =>
    guarded('list_orders', logger, async () => {
      // null is absent, as some clients send an argument left out (and a first page of 0 answers endCursor null).
      const raw = args as RawArgs;
      const statuses = raw.status == null ? null : raw.status;
      if (statuses !== null && (!Array.isArray(statuses) || !statuses.every((s) => (ORDER_STATUSES as readonly unknown[]).includes(s)))) {
        throw new DomainError('bad_request', `status must be a list of: ${ORDER_STATUSES.join(', ')}.`, { field: 'status' });
      }
      if (raw.first != null && typeof raw.first !== 'number') throw new DomainError('bad_request', 'first must be a number.', { field: 'first' });
      if (raw.after != null && typeof raw.after !== 'string') throw new DomainError('bad_request', 'after must be a string.', { field: 'after' });
      const page = await services.staff.list({ statuses: statuses as OrderStatus[] | null, first: (raw.first as number | null | undefined) ?? null, after: (raw.after as string | null | undefined) ?? null });
      return answer({
        ok: true,
        totalCount: page.totalCount,
        orders: page.edges.map((edge) => staffOrder(edge.node)),
        pageInfo: page.pageInfo,
        message: `${page.edges.length} of ${page.totalCount} orders.`,
      });
    }),
  );

  server.registerTool('advance_order', { title: TITLES.advance_order, description: DESCRIPTIONS.advance_order, inputSchema: advertised(ADVANCE_INPUT), annotations: { destructiveHint: false, ...staffAnnotations } }, (args) =>
    guarded('advance_order', logger, async () => {
      const raw = args as RawArgs;
      const status = text(raw, 'status');
      if (!(ADVANCE_STATUSES as readonly string[]).includes(status)) {
        // Only the two the tool takes: collect_order and cancel_order make the others.
        throw new DomainError('bad_request', `status must be one of: ${ADVANCE_STATUSES.join(', ')} (collect_order hands an order over, cancel_order cancels it).`, { field: 'status' });
      }
      return answer(changed(await services.staff.advance(text(raw, 'orderNumber'), status as OrderStatus)));
    }),
  );

  server.registerTool('collect_order', { title: TITLES.collect_order, description: DESCRIPTIONS.collect_order, inputSchema: advertised(COLLECT_INPUT), annotations: { destructiveHint: false, ...staffAnnotations } }, (args) =>
    guarded('collect_order', logger, async () => {
      const raw = args as RawArgs;
      return answer(changed(await services.staff.collect(text(raw, 'orderNumber'), text(raw, 'collectorName'))));
    }),
  );

  server.registerTool('cancel_order', { title: TITLES.cancel_order, description: DESCRIPTIONS.cancel_order, inputSchema: advertised(CANCEL_INPUT), annotations: { destructiveHint: true, ...staffAnnotations } }, (args) =>
    guarded('cancel_order', logger, async () => {
      const raw = args as RawArgs;
      return answer(changed(await services.staff.cancel(text(raw, 'orderNumber'), text(raw, 'reason'))));
    }),
  );
}
