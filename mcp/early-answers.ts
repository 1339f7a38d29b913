/**
 * What the MCP door (mcp/mcp-door.ts) reads and answers before any server runs: JSON-RPC errors and results in the
 * SDK's own shapes, the initialize it refuses, a message holding a forbidden character, a refusal of the rate
 * limit, and the protocol version a request speaks (docs/agents.md#sessions).
 */
import type { ServerResponse } from 'node:http';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, InitializeRequestSchema, JSONRPCRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../src/kernel/errors.ts';
import { forbiddenCharacterMessage, type ForbiddenText } from '../src/kernel/unicode-text.ts';
import { errorBody, retryAfterOf } from '../rest-compat/errors.ts';
import { answer, withRetryAfter } from './tool-results.ts';

const rpcId = (id: unknown) => (typeof id === 'string' || typeof id === 'number' ? id : null);

/** A JSON-RPC error answered before any server runs (the SDK's own shape for these). */
export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown, id: unknown = null): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: rpcId(id) }));
}

/** A JSON-RPC result answered before any server runs, as JSON (a client of Streamable HTTP accepts both kinds). */
export function rpcResult(res: ServerResponse, id: unknown, result: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

/**
 * A refusal before any server ran (the initialize's rate limit): document 1's Error body as the error's data, with
 * `retryAfter` in it as a tool result says it (a client's host never sees the Retry-After header), and the id of
 * the request refused when it is known.
 */
export function refuseWith(res: ServerResponse, error: DomainError, id: unknown = null): void {
  const seconds = retryAfterOf(error);
  const retry: Record<string, string> = seconds === undefined ? {} : { 'retry-after': String(seconds) };
  rpcError(res, error.status, -32000, error.message, retry, withRetryAfter(errorBody(error), error), id);
}

/**
 * Why an `initialize` cannot open a session, in the SDK's own terms, or null: a client that does not accept both
 * answer types (406, as the SDK's transport says), or params that are not an initialize request's (JSON-RPC's
 * invalid params, where the SDK answered -32603, internal error), or one sent in a batch or not as JSON-RPC 2.0.
 * Each used to leave a working session behind.
 */
export function initializeRefusal(message: unknown, accept: string | undefined, messages: number): { status: number; code: number; message: string } | null {
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  // A batch holding it, or a message that is not JSON-RPC 2.0: JSON-RPC's invalid request (the SDK said so for the
  // first, a parse error for the second, and made the session anyway).
  if (messages > 1) return { status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed, on its own' };
  if (!JSONRPCRequestSchema.safeParse(message).success) return { status: 400, code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request' };
  const parsed = InitializeRequestSchema.safeParse(message);
  if (parsed.success) return null;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ');
  return { status: 400, code: -32602, message: `Invalid params: ${problems}` };
}

/**
 * The protocol version a request speaks: at initialize the one the server answers (the client's when supported, else
 * the latest, as the SDK negotiates); after it the `mcp-protocol-version` header, which the SDK has checked, or
 * 2025-03-26 without one, as the spec says to assume. What a tool may send depends on it (resource_link: 2025-06-18).
 */
export function protocolVersionOf(header: string | undefined, initialize?: { params?: { protocolVersion?: unknown } }): string {
  if (!initialize) return header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  const asked = initialize.params?.protocolVersion;
  return typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
}

/**
 * A message holding a character no field takes (src/kernel/unicode-text.ts): a tool call gets a tool result with
 * isError, as every other bad argument does (an agent reads it and corrects itself); anything else JSON-RPC's
 * invalid params. Nothing runs, no session is made.
 */
export function refuseForbiddenText(res: ServerResponse, body: unknown, { at, character }: ForbiddenText): void {
  const call = body as { method?: unknown; id?: unknown } | null;
  if (call?.method === 'tools/call' && rpcId(call.id) !== null) {
    const field = at.replace(/^params\.arguments\./u, '');
    const result = answer(errorBody(new DomainError('bad_request', forbiddenCharacterMessage(field, character), { field })));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
    return;
  }
  rpcError(res, 400, -32602, `Invalid params: ${forbiddenCharacterMessage(at, character)}`);
}
