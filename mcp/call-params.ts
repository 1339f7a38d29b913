/**
 * The params of a `tools/call` and of the resource requests before the SDK reads them. The SDK answers params that
 * are not its shape with JSON-RPC's internal error (-32603) and a raw zod dump; an agent's client learns nothing it
 * can act on. Some clients send `arguments: null` for a tool that takes none: that is no arguments. Anything else
 * malformed gets invalid params (-32602) in one plain sentence, and nothing runs.
 */
import { ORDER_TEMPLATE } from './order-resources.ts';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The requests whose params are one resource URI. */
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/** What is wrong with a tools/call's params, or null (also for any other message); `arguments: null` is dropped. */
function toolCallProblem(params: unknown): string | null {
  if (!isObject(params)) return 'params must be an object with the tool\'s name and its arguments.';
  if (typeof params.name !== 'string' || params.name === '') return 'params.name must be the name of a tool (tools/list names them).';
  if (params.arguments === null) delete params.arguments;
  if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object of the tool\'s arguments by name.';
  return null;
}

/** What is wrong with the params of a tools/call or a resource request, or null (also for any other message). */
export function paramsProblem(message: unknown): string | null {
  if (!isObject(message)) return null;
  if (message.method === 'tools/call') return toolCallProblem(message.params);
  if (typeof message.method !== 'string' || !RESOURCE_METHODS.has(message.method)) return null;
  const uri = isObject(message.params) ? message.params.uri : undefined;
  if (typeof uri !== 'string') return `params.uri must be a resource URI (a string), such as ${ORDER_TEMPLATE}.`;
  // Without a token the template does not match, and the SDK would call an order that exists "not found".
  if (message.method !== 'resources/unsubscribe' && uri.startsWith('sleeve://orders/') && !WITH_TOKEN.test(uri)) {
    return `${uri} has no payToken; an order resource looks like ${ORDER_TEMPLATE}, with the payToken create_order answered.`;
  }
  return null;
}

/** A query holding a non-empty `t`; `sleeve://orders/1001` and `sleeve://orders/1001?t=` have none. */
const WITH_TOKEN = /[?&]t=[^&#]/u;
