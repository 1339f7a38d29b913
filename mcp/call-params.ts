/**
 * The params of a `tools/call` before the SDK reads them. The SDK answers params that are not its shape with
 * JSON-RPC's internal error (-32603) and a raw zod dump; an agent's client learns nothing it can act on. Some
 * clients send `arguments: null` for a tool that takes none: that is no arguments. Anything else malformed gets
 * invalid params (-32602) in one plain sentence, and nothing runs.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a tools/call's params, or null (also for any other message); `arguments: null` is dropped. */
export function toolCallProblem(message: unknown): string | null {
  if (!isObject(message) || message.method !== 'tools/call') return null;
  const { params } = message;
  if (!isObject(params)) return 'params must be an object with the tool\'s name and its arguments.';
  if (typeof params.name !== 'string' || params.name === '') return 'params.name must be the name of a tool (tools/list names them).';
  if (params.arguments === null) delete params.arguments;
  if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object of the tool\'s arguments by name.';
  return null;
}
