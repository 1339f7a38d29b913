/**
 * The MCP door: `POST/GET/DELETE /mcp`, the Model Context Protocol over Streamable HTTP with the official SDK
 * (CONTRACT §9, docs/agents.md). It calls the services every door calls (DESIGN.md), and works behind several
 * instances (docs/agents.md#sessions):
 *
 * - every request gets a fresh McpServer and a stateless SDK transport; what a session is — its client's declared
 *   capabilities, its subscriptions — lives in the shared store (mcp/session-store.ts), so any instance continues it;
 * - a client's answer to a tool's question is relayed over the event bus to the instance whose call asked it
 *   (mcp/relay.ts);
 * - resource updates follow the event bus and go out on whichever instance holds the session's stream
 *   (mcp/resource-updates.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { InitializeRequestSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../src/events/event-bus.ts';
import { PayloadTooLargeError, rawHeader, readBody } from '../src/http/node-request.ts';
import { forbiddenCharacterAt, forbiddenCharacterMessage, mayHoldForbiddenCharacter, type ForbiddenText } from '../src/kernel/unicode-text.ts';
import type { Config } from '../src/kernel/config.ts';
import { CorsPolicy } from '../src/kernel/cors.ts';
import { enforceRateLimit } from '../src/kernel/rate-limiter.ts';
import { randomToken } from '../src/kernel/tokens.ts';
import { loadVaultKey } from '../src/kernel/vault-key.ts';
import { createVaultCrypto } from '../src/payments/vault-crypto.ts';
import { errorBody, retryAfterOf } from '../rest-compat/errors.ts';
import { DomainError } from '../src/kernel/errors.ts';
import { instructions } from './agent-rules.ts';
import { registerOrderResources } from './order-resources.ts';
import { registerOrderingTools } from './ordering-tools.ts';
import { listenForReplies, relayReply, RelayedTransport, replyRoute, sessionKey } from './relay.ts';
import { ResourceUpdates } from './resource-updates.ts';
import { createSessionStore, type SessionRecord } from './session-store.ts';
import { toolCallProblem } from './call-params.ts';
import { McpOriginGuard } from './origin-guard.ts';
import { isStaff, registerStaffTools, staffToolRefusal } from './staff-tools.ts';
import { answer } from './tool-results.ts';
import type { CallScope, ToolDeps } from './tool-deps.ts';

export interface McpDoorDeps extends ToolDeps {
  bus: EventBus;
  config: Pick<Config, 'adminToken' | 'redisUrl' | 'redisPrefix' | 'maxBodyBytes' | 'corsOrigins' | 'vaultKey' | 'vaultPreviousKeys' | 'dataDir'>;
}

export interface McpDoor {
  handleNode(req: IncomingMessage, res: ServerResponse, context: { clientAddress: string }): Promise<void>;
  /** Ends the standalone streams this instance holds (shutdown: docs/edge.md#shutdown-of-streams). */
  endStreams(): void;
  dispose(): Promise<void>;
}

const MCP_HEADERS = 'mcp-session-id, mcp-protocol-version, last-event-id';

/** Whether declared client capabilities include form elicitation (`elicitation: {}` is form, in every revision). */
function formElicitation(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: Record<string, unknown> } | undefined)?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** A JSON-RPC error answered before any server runs (the SDK's own shape for these). */
function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown, id: unknown = null): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: typeof id === 'string' || typeof id === 'number' ? id : null }));
}

/** A JSON-RPC result answered before any server runs, as JSON (a client of Streamable HTTP accepts both kinds). */
function rpcResult(res: ServerResponse, id: unknown, result: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

/**
 * Why an `initialize` cannot open a session, in the SDK's own terms, or null: a client that does not accept both
 * answer types (406, as the SDK's transport says), or params that are not an initialize request's (JSON-RPC's
 * invalid params, where the SDK answered -32603, internal error), or one sent in a batch or not as JSON-RPC 2.0.
 * Each used to leave a working session behind.
 */
function initializeRefusal(message: unknown, accept: string | undefined, messages: number): { status: number; code: number; message: string } | null {
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
 * A message holding a character no field takes (src/kernel/unicode-text.ts): a tool call gets a tool result with
 * isError, as every other bad argument does (an agent reads it and corrects itself); anything else JSON-RPC's
 * invalid params. Nothing runs, no session is made.
 */
function refuseForbiddenText(res: ServerResponse, body: unknown, { at, character }: ForbiddenText): void {
  const call = body as { method?: unknown; id?: unknown } | null;
  if (call?.method === 'tools/call' && (typeof call.id === 'string' || typeof call.id === 'number')) {
    const field = at.replace(/^params\.arguments\./u, '');
    const result = answer(errorBody(new DomainError('bad_request', forbiddenCharacterMessage(field, character), { field })));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
    return;
  }
  rpcError(res, 400, -32602, `Invalid params: ${forbiddenCharacterMessage(at, character)}`);
}

/** Resolves once the answer is fully written or its connection gone: an SSE answer outlives handleRequest. */
function answered(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('close', resolve);
    res.once('finish', resolve);
  });
}

export function createMcpDoor(deps: McpDoorDeps): McpDoor {
  const { config, bus, logger } = deps;
  const store = createSessionStore({ redisUrl: config.redisUrl, prefix: config.redisPrefix });
  const vault = createVaultCrypto(loadVaultKey(config));
  const origins = new McpOriginGuard(deps.publicUrl, config.corsOrigins);
  // The same for every request's server: built once.
  const serverInstructions = instructions(deps.holdSeconds);
  // The answers' CORS headers: the gateway's own origin is as good as a listed one.
  const cors = new CorsPolicy(config.corsOrigins === null ? null : [...new Set([...config.corsOrigins, new URL(deps.publicUrl).origin])]);
  /** This process's name in question ids. */
  const instance = randomToken(9);
  const calls = new Map<string, { sessionKey: string; transport: RelayedTransport }>();
  let nextCall = 0;
  // One for the process: the SDK would otherwise build an Ajv instance for every request's server.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const updates = new ResourceUpdates(bus, store, (sealed) => vault.open(sealed), logger);
  const replies = listenForReplies(bus, instance, (reply) => {
    const call = calls.get(reply.callId);
    if (call && call.sessionKey === reply.sessionKey) call.transport.deliver(reply.message as never);
  });

  function buildServer(scope: CallScope): McpServer {
    const server = new McpServer({ name: 'sleeve-gateway', version: '1.0.0' }, { instructions: serverInstructions, capabilities: { tools: {}, resources: {} }, jsonSchemaValidator });
    registerOrderingTools(server, deps, scope);
    if (scope.staff) registerStaffTools(server, deps);
    registerOrderResources(server, deps, scope, { store, seal: (uri) => vault.seal(uri) });
    // The SDK announces list changes it would send when tools come and go; here the lists never change in a session.
    server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
    return server;
  }

  /** The session a request names; answers 400 or 404 itself (as the SDK's stateful transport would) when none. */
  async function sessionOf(req: IncomingMessage, res: ServerResponse): Promise<{ id: string; record: SessionRecord } | null> {
    const id = rawHeader(req, 'mcp-session-id');
    if (!id) {
      rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return null;
    }
    const record = id.length <= 100 ? await store.get(id) : null;
    if (!record) rpcError(res, 404, -32001, 'Session not found');
    return record ? { id, record } : null;
  }

  /** Serves one request with a fresh server for `scope`, keeping the call reachable for answers until it is done. */
  async function serve(req: IncomingMessage, res: ServerResponse, scope: CallScope, body: unknown, json: boolean): Promise<void> {
    const callId = (nextCall++).toString(36);
    const inner = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    const transport = new RelayedTransport(inner, `${instance}.${callId}`, scope.sessionId);
    const server = buildServer(scope);
    calls.set(callId, { sessionKey: sessionKey(scope.sessionId), transport });
    try {
      await server.connect(transport);
      await inner.handleRequest(req, res, body);
      await answered(res);
    } finally {
      calls.delete(callId);
      await server.close();
    }
  }

  async function post(req: IncomingMessage, res: ServerResponse, clientAddress: string): Promise<void> {
    if (!/^application\/json\s*(;|$)/iu.test(rawHeader(req, 'content-type') ?? '')) {
      return rpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    let body: unknown;
    let raw: string;
    try {
      raw = await readBody(req, config.maxBodyBytes);
      body = JSON.parse(raw);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) return rpcError(res, 413, -32000, 'The request body is too large.');
      return rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    const broken = mayHoldForbiddenCharacter(raw) ? forbiddenCharacterAt(body) : null;
    if (broken !== null) return refuseForbiddenText(res, body, broken);
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const initialize = messages.find((m) => (m as { method?: unknown } | null)?.method === 'initialize') as { params?: { capabilities?: unknown } } | undefined;
    const staff = isStaff(rawHeader(req, 'authorization'), config.adminToken);
    if (initialize) {
      // Refused before a session exists: the SDK would refuse it too, but after the session was made and its id sent.
      const refusal = initializeRefusal(initialize, rawHeader(req, 'accept'), messages.length);
      if (refusal) return rpcError(res, refusal.status, refusal.code, refusal.message, {}, undefined, (initialize as { id?: unknown }).id);
      // A session is a record in the shared store: counted like a read of the options, per client address.
      await enforceRateLimit(deps.limiter, 'options', clientAddress);
      const id = randomToken();
      const record: SessionRecord = { canElicit: formElicitation(initialize.params?.capabilities), createdAt: Date.now() };
      // Stored before the answer goes out: the client's next request may reach another instance at once.
      await store.create(id, record);
      res.setHeader('mcp-session-id', id);
      return serve(req, res, { clientAddress, sessionId: id, canElicit: record.canElicit, staff }, body, !record.canElicit);
    }
    const session = await sessionOf(req, res);
    if (!session) return;
    const malformed = messages.length === 1 ? toolCallProblem(body) : null;
    if (malformed) return rpcError(res, 200, -32602, `Invalid params: ${malformed}`, {}, undefined, (body as { id?: unknown }).id);
    const refusedStaffTool = !staff && messages.length === 1 ? staffToolRefusal(body) : null;
    if (refusedStaffTool) return rpcResult(res, (body as { id?: unknown }).id, refusedStaffTool);
    // Answers to a tool's questions go to the call that asked them, on whichever instance it runs.
    for (const message of messages) {
      const route = replyRoute(message);
      if (route) relayReply(bus, session.id, route);
    }
    if (!messages.some((m) => typeof (m as { method?: unknown } | null)?.method === 'string' && 'id' in (m as object))) {
      res.writeHead(202).end(); // only notifications and answers: nothing to run here
      return;
    }
    return serve(req, res, { clientAddress, sessionId: session.id, canElicit: session.record.canElicit, staff }, body, !session.record.canElicit);
  }

  /** GET: the session's standalone stream, held here until the client leaves; updates are written to it. */
  async function stream(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = await sessionOf(req, res);
    if (!session) return;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await transport.start();
    updates.attach(session.id, transport);
    res.once('close', () => updates.detach(session.id, transport));
    try {
      await transport.handleRequest(req, res);
      await answered(res);
    } finally {
      updates.detach(session.id, transport);
      await transport.close();
    }
  }

  /** DELETE: the session ends everywhere: its record and subscriptions, and its stream if it is here. */
  async function end(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = await sessionOf(req, res);
    if (!session) return;
    await store.remove(session.id);
    updates.end(session.id);
    res.writeHead(200).end();
  }

  return {
    async handleNode(req, res, { clientAddress }) {
      const origin = rawHeader(req, 'origin');
      // docs/agents.md#mcp-server: a browser page only from an allowed origin (the DNS-rebinding guard).
      if (!origins.allows(origin)) return rpcError(res, 403, -32000, 'Forbidden: this origin may not use /mcp');
      const headers = cors.headers(origin);
      if (headers) {
        headers['access-control-expose-headers'] = `${headers['access-control-expose-headers'] ?? 'retry-after'}, mcp-session-id, mcp-protocol-version`;
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      }
      try {
        if (req.method === 'POST') return await post(req, res, clientAddress);
        if (req.method === 'GET') return await stream(req, res);
        if (req.method === 'DELETE') return await end(req, res);
        if (req.method === 'OPTIONS') {
          const preflight = cors.preflight(origin, ['GET', 'POST', 'DELETE'], rawHeader(req, 'access-control-request-headers'), MCP_HEADERS);
          res.writeHead(204, preflight).end();
          return;
        }
        return rpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE, OPTIONS' });
      } catch (error) {
        if (!(error instanceof DomainError) || res.headersSent) throw error;
        // A refusal before any server ran (the initialize's rate limit): document 1's Error body as the error's data.
        const seconds = retryAfterOf(error);
        const retry: Record<string, string> = seconds === undefined ? {} : { 'retry-after': String(seconds) };
        rpcError(res, error.status, -32000, error.message, retry, errorBody(error));
      }
    },
    endStreams: () => updates.end(),
    async dispose() {
      replies.stop();
      await updates.dispose();
      await store.dispose();
    },
  };
}
