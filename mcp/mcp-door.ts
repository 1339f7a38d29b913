/**
 * The MCP door: `POST/GET/DELETE /mcp`, the Model Context Protocol over Streamable HTTP with the official SDK
 * (CONTRACT §9, docs/agents.md). It calls the services every door calls (DESIGN.md), and works behind several
 * instances (docs/agents.md#sessions):
 *
 * - every request gets a fresh McpServer and a stateless SDK transport; what a session is — its client's declared
 *   capabilities, its subscriptions — lives in the shared store (mcp/session-store.ts), so any instance continues it;
 * - a client's answer to a tool's question is relayed over the event bus to the instance whose call asked it, and
 *   its cancellation of a call to the instance running that call (mcp/instance-calls.ts, mcp/relay.ts); whether a
 *   call acts or is cancelled is decided once for all instances, and answers are kept for an instance that misses
 *   their publish (mcp/call-records.ts);
 * - resource updates follow the event bus and go out on whichever instance holds the session's stream
 *   (mcp/resource-updates.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../src/events/event-bus.ts';
import { PayloadTooLargeError, rawHeader, readBody } from '../src/http/node-request.ts';
import { forbiddenCharacterAt, mayHoldForbiddenCharacter } from '../src/kernel/unicode-text.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonTextTooDeep } from '../src/kernel/json-depth.ts';
import type { Config } from '../src/kernel/config.ts';
import { ADDRESS_RETRY_AFTER_SECONDS, tooManyConnections, type AddressBudget } from '../src/kernel/address-budget.ts';
import { CorsPolicy } from '../src/kernel/cors.ts';
import { enforceRateLimit } from '../src/kernel/rate-limiter.ts';
import { randomToken } from '../src/kernel/tokens.ts';
import { loadVaultKey } from '../src/kernel/vault-key.ts';
import { createVaultCrypto } from '../src/payments/vault-crypto.ts';
import { DomainError } from '../src/kernel/errors.ts';
import { instructions } from './agent-rules.ts';
import { registerOrderResources } from './order-resources.ts';
import { registerOrderingTools } from './ordering-tools.ts';
import { createCallRecords } from './call-records.ts';
import { instanceCalls } from './instance-calls.ts';
import { RelayedTransport } from './relay.ts';
import { ResourceUpdates } from './resource-updates.ts';
import { createSessionStore, sessionKey, type SessionRecord } from './session-store.ts';
import { paramsProblem } from './call-params.ts';
import { initializeRefusal, protocolVersionOf, refuseForbiddenText, refuseWith, rpcError, rpcResult } from './early-answers.ts';
import { McpOriginGuard } from './origin-guard.ts';
import { isStaff, registerStaffTools, staffToolRefusal } from './staff-tools.ts';
import type { CallScope, ToolDeps } from './tool-deps.ts';

export interface McpDoorDeps extends ToolDeps {
  bus: EventBus;
  config: Pick<Config, 'adminToken' | 'redisUrl' | 'redisPrefix' | 'maxBodyBytes' | 'corsOrigins' | 'vaultKey' | 'vaultPreviousKeys' | 'dataDir'>;
  /**
   * MAX_CONNECTIONS_PER_ADDRESS: a session's standalone stream holds a place of its client address's while it is
   * open, in the budget the GraphQL door's sockets and SSE streams share (docs/edge.md#bounds).
   */
  connections?: AddressBudget;
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

/** A JSON-RPC request (a method and an id), as opposed to a notification or an answer. */
const isRequest = (message: unknown): message is { id: RequestId } =>
  typeof (message as { method?: unknown } | null)?.method === 'string' && 'id' in (message as object);

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
  // The answers' CORS headers, for every origin the guard lets in (its own and a local page's too, besides the list).
  const cors = new CorsPolicy(config.corsOrigins, (origin) => origins.allows(origin));
  /** This process's name in question ids. */
  const instance = randomToken(9);
  let nextCall = 0;
  // One for the process: the SDK would otherwise build an Ajv instance for every request's server.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const updates = new ResourceUpdates(bus, store, (sealed) => vault.open(sealed), logger);
  const calls = instanceCalls(bus, instance, createCallRecords({ redisUrl: config.redisUrl, prefix: config.redisPrefix }), logger);

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

  /**
   * Serves one request with a fresh server for `scope`, keeping the call reachable for answers and cancellations until
   * it is done.
   */
  async function serve(req: IncomingMessage, res: ServerResponse, scope: CallScope, body: unknown, json: boolean): Promise<void> {
    const callId = (nextCall++).toString(36);
    const inner = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    const requests = (Array.isArray(body) ? body : [body]).filter(isRequest).map((request) => request.id);
    // A cancelled request is never answered: its SSE stream is closed; a JSON answer, which the SDK then never writes,
    // is 202 with nothing (in a batch, the others' answers are lost with it: batches are gone since 2025-06-18).
    const endUnanswered = (cancelled: RequestId): void => {
      if (!json) inner.closeSSEStream(cancelled);
      else if (!res.headersSent) res.writeHead(202).end();
    };
    const transport = new RelayedTransport(inner, `${instance}.${callId}`, scope.sessionId, requests, endUnanswered);
    const key = sessionKey(scope.sessionId);
    const server = buildServer({ ...scope, acting: (requestId) => calls.acting(key, transport, requestId) });
    calls.add(callId, key, transport);
    try {
      await server.connect(transport);
      // A cancelled call's JSON answer never settles handleRequest: the call is over once `res` is.
      await Promise.race([inner.handleRequest(req, res, body), answered(res)]);
      await answered(res);
    } finally {
      calls.remove(callId);
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
      // Before it is parsed, as REST's and GraphQL's bodies are (docs/edge.md#bounds): /mcp took 500,000 levels.
      if (jsonTextTooDeep(raw)) return rpcError(res, 400, -32600, `Invalid Request: ${JSON_TOO_DEEP_MESSAGE}`);
      body = JSON.parse(raw);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) return rpcError(res, 413, -32000, 'The request body is too large.');
      return rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    const broken = mayHoldForbiddenCharacter(raw) ? forbiddenCharacterAt(body) : null;
    if (broken !== null) return refuseForbiddenText(res, body, broken);
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const initialize = messages.find((m) => (m as { method?: unknown } | null)?.method === 'initialize') as { id?: unknown; params?: { capabilities?: unknown; protocolVersion?: unknown } } | undefined;
    const staff = isStaff(rawHeader(req, 'authorization'), config.adminToken);
    const protocolVersion = protocolVersionOf(rawHeader(req, 'mcp-protocol-version'), initialize);
    if (initialize) {
      // Refused before a session exists: the SDK would refuse it too, but after the session was made and its id sent.
      const refusal = initializeRefusal(initialize, rawHeader(req, 'accept'), messages.length);
      if (refusal) return rpcError(res, refusal.status, refusal.code, refusal.message, {}, undefined, initialize.id);
      // A session is a record in the shared store: counted per client address against the read limit
      // (docs/agents.md#sessions).
      try {
        await enforceRateLimit(deps.limiter, 'session', clientAddress);
      } catch (error) {
        if (error instanceof DomainError) return refuseWith(res, error, initialize.id);
        throw error;
      }
      const id = randomToken();
      const record: SessionRecord = { canElicit: formElicitation(initialize.params?.capabilities), createdAt: Date.now() };
      // Stored before the answer goes out: the client's next request may reach another instance at once.
      await store.create(id, record);
      res.setHeader('mcp-session-id', id);
      return serve(req, res, { clientAddress, sessionId: id, canElicit: record.canElicit, staff, protocolVersion }, body, !record.canElicit);
    }
    const session = await sessionOf(req, res);
    if (!session) return;
    const malformed = messages.length === 1 ? paramsProblem(body) : null;
    if (malformed) return rpcError(res, 200, -32602, `Invalid params: ${malformed}`, {}, undefined, (body as { id?: unknown }).id);
    const refusedStaffTool = !staff && messages.length === 1 ? staffToolRefusal(body) : null;
    if (refusedStaffTool) return rpcResult(res, (body as { id?: unknown }).id, refusedStaffTool);
    // Answers to a tool's questions and cancellations go to the call concerned, on whichever instance it runs.
    for (const message of messages) await calls.fromClient(session.id, message);
    if (!messages.some(isRequest)) {
      res.writeHead(202).end(); // only notifications and answers: nothing to run here
      return;
    }
    return serve(req, res, { clientAddress, sessionId: session.id, canElicit: session.record.canElicit, staff, protocolVersion }, body, !session.record.canElicit);
  }

  /**
   * GET: the session's standalone stream, held here until the client leaves; updates are written to it. It holds a
   * place of its address's while open: one stream a session, but sessions are cheap to open, and before, an address
   * could hold as many streams as it opened sessions, round the bound the GraphQL door keeps.
   */
  async function stream(req: IncomingMessage, res: ServerResponse, clientAddress: string): Promise<void> {
    const session = await sessionOf(req, res);
    if (!session) return;
    const { connections } = deps;
    if (connections && !connections.holdWhileOpen(clientAddress, res)) {
      return refuseWith(res, new DomainError('rate_limited', tooManyConnections(connections.limit), { retryAfter: ADDRESS_RETRY_AFTER_SECONDS }));
    }
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
        if (req.method === 'GET') return await stream(req, res, clientAddress);
        if (req.method === 'DELETE') return await end(req, res);
        if (req.method === 'OPTIONS') {
          const preflight = cors.preflight(origin, ['GET', 'POST', 'DELETE'], rawHeader(req, 'access-control-request-headers'), MCP_HEADERS);
          res.writeHead(204, preflight).end();
          return;
        }
        return rpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE, OPTIONS' });
      } catch (error) {
        if (!(error instanceof DomainError) || res.headersSent) throw error;
        refuseWith(res, error);
      }
    },
    endStreams: () => updates.end(),
    async dispose() {
      // The updates under way read the session store: it closes after them.
      await Promise.all([updates.dispose().then(() => store.dispose()), calls.dispose()]);
    },
  };
}
