/**
 * Each order as a resource (docs/agents.md#order-resources): the template `sleeve://orders/{orderNumber}?t={payToken}`,
 * read as the status lookup answers it (same rate limit, same token check, same body, its `nextAction` in an MCP
 * agent's terms as every tool's), and `resources/subscribe`,
 * kept in the shared session store so that whichever instance holds the client's stream sends its
 * `notifications/resources/updated` (mcp/resource-updates.ts).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../src/kernel/errors.ts';
import { enforceRateLimit, orderSubject } from '../src/kernel/rate-limiter.ts';
import { openedOrCounted } from '../src/kernel/token-guesses.ts';
import { sha256Hex } from '../src/kernel/tokens.ts';
import { errorBody } from '../rest-compat/errors.ts';
import { orderBody } from '../rest-compat/ordering.ts';
import { inMcpTerms } from './agent-rules.ts';
import { MAX_SUBSCRIPTIONS, type SessionStore } from './session-store.ts';
import type { CallScope, ToolDeps } from './tool-deps.ts';
import { withRetryAfter } from './tool-results.ts';

export const ORDER_TEMPLATE = 'sleeve://orders/{orderNumber}?t={payToken}';

/**
 * The MCP error for a failure: JSON-RPC code by kind, document 1's Error body as its data, with `retryAfter` where
 * REST sends Retry-After. A refusal that is no fault of the request (rate_limited) is -32000, a server error, as the
 * initialize's 429 is (mcp/early-answers.ts): it was -32600 "Invalid Request", which tells a client to stop, with no
 * word of when to try again.
 */
function resourceError(error: unknown): McpError {
  if (!(error instanceof DomainError)) return new McpError(ErrorCode.InternalError, 'Something went wrong on our side. Please try again.');
  const code = error.code === 'not_found' ? -32002 : error.code === 'bad_request' ? ErrorCode.InvalidParams : error.retryable ? -32000 : ErrorCode.InvalidRequest;
  return new McpError(code, error.message, withRetryAfter(errorBody(error), error));
}

export interface SubscriptionDeps {
  store: SessionStore;
  /** Seals a URI with VAULT_KEY before it is stored: it holds a payToken. */
  seal(uri: string): string;
}

export function registerOrderResources(server: McpServer, deps: ToolDeps, scope: CallScope, subscriptions: SubscriptionDeps): void {
  const { services, limiter, logger } = deps;
  const template = new ResourceTemplate(ORDER_TEMPLATE, { list: undefined });

  /** The order a URI names, for the holder of its token: not_found otherwise, exactly as the lookup answers. */
  async function orderOf(uri: string) {
    const vars = template.uriTemplate.match(uri);
    const orderNumber = typeof vars?.orderNumber === 'string' ? vars.orderNumber : '';
    const token = typeof vars?.payToken === 'string' ? decodeURIComponent(vars.payToken) : '';
    if (!vars || !/^[0-9]+$/u.test(orderNumber)) throw new DomainError('bad_request', `An order resource looks like ${ORDER_TEMPLATE}.`);
    await enforceRateLimit(limiter, 'lookup', scope.clientAddress, orderSubject(orderNumber, token));
    return { orderNumber, token, order: await openedOrCounted(limiter, 'lookup', scope.clientAddress, () => services.orders.lookup(orderNumber, token)) };
  }

  server.registerResource(
    'order',
    template,
    { title: 'A sleeve order', description: 'The order as JSON, as get_order answers it. Subscribe to hear of each status change.', mimeType: 'application/json' },
    async (uri) => {
      try {
        const { token, order } = await orderOf(uri.href);
        const body = inMcpTerms(orderBody(services.orders.view(order, { presentedToken: token })));
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] };
      } catch (error) {
        if (!(error instanceof DomainError)) logger.error('unexpected error reading an MCP resource', { error });
        throw resourceError(error);
      }
    },
  );

  server.server.registerCapabilities({ resources: { subscribe: true } });

  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      const { orderNumber } = await orderOf(request.params.uri);
      const uri = request.params.uri;
      const added = await subscriptions.store.subscribe(scope.sessionId, orderNumber, sha256Hex(uri), subscriptions.seal(uri));
      if (!added) throw new DomainError('bad_request', `A session may follow at most ${MAX_SUBSCRIPTIONS} orders; unsubscribe from one first.`);
      return {};
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error('unexpected error subscribing to an MCP resource', { error });
      throw resourceError(error);
    }
  });

  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const vars = template.uriTemplate.match(request.params.uri);
    if (typeof vars?.orderNumber === 'string') await subscriptions.store.unsubscribe(scope.sessionId, vars.orderNumber, sha256Hex(request.params.uri));
    return {};
  });
}
