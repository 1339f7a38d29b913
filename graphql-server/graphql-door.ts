/**
 * The GraphQL door, put together: yoga (yoga-server.ts) with the per-request context (context-factory.ts) and the
 * document cache, the fast JSON path beside it (fast-path.ts), and the two ways in — a Fetch handler (the in-memory
 * gateway) and a node:http handler (node-handler.ts). WebSocket comes in through ws-transport.ts. The trusted
 * documents and the production policy are one object each, shared by yoga, the fast path and WebSocket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { GraphQLSchema } from 'graphql';
import { CorsPolicy } from '../src/kernel/cors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';
import { createEventBus, type EventBus } from '../src/events/event-bus.ts';
import { NO_METRICS, type GatewayMetrics } from '../src/operations/metrics.ts';
import { TRUSTED_OPERATIONS } from '../src/pages/trusted-operations.ts';
import { AddressBudget, DEFAULT_ADDRESS_BOUNDS, type AddressBounds } from '../src/kernel/address-budget.ts';
import { createContextFactory, viewerFromAuthorization } from './context-factory.ts';
import { createDocumentCache } from './document-cache.ts';
import { FastJsonPath } from './fast-path.ts';
import { tooLarge } from './http-messages.ts';
import { GraphQLNodeHandler } from './node-handler.ts';
import { SingleConnectionMode } from './single-connection-mode.ts';
import { StreamShutdown } from './stream-shutdown.ts';
import { TrustedDocuments, type TrustedDocumentsMode } from './trusted-documents.ts';
import { ProductionHardening } from './use-production-hardening.ts';
import { createYogaServer, type GraphQLYoga, type ServerContext } from './yoga-server.ts';
import { tracingOn } from '../src/operations/tracing.ts';

export { GRAPHQL_PATH, type ServerContext } from './yoga-server.ts';

export interface GraphQLDoor {
  yoga: GraphQLYoga;
  /** Fetch handler (in-memory gateway, tests): yoga's own pipeline, answering a Response of the caller's class. */
  fetch(request: Request, serverContext: ServerContext): Promise<Response>;
  /** False when a plugin hooks a step the fast JSON path skips: yoga then runs every request. */
  readonly compiledPathOn: boolean;
  /** node:http handler for requests to /graphql. */
  handleNode(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void>;
  /** Ends every open SSE stream with its `complete` event (docs/edge.md#shutdown-of-streams). */
  /** Ends every open stream without `complete` (a shutdown: clients come back); `final` (dispose): with it. */
  endStreams(final?: boolean): void;
  /** For graphql-ws (ws-transport.ts): the same trusted documents and production policy as over HTTP. */
  readonly trusted: TrustedDocuments;
  readonly hardening: ProductionHardening;
  /** MAX_CONNECTIONS_PER_ADDRESS (address-budget.ts): SSE streams take a place here, and so do graphql-ws sockets (ws-upgrade.ts) and the MCP door's streams. */
  readonly connections: AddressBudget;
  /** MAX_STREAMS_PER_ADDRESS: every subscription takes a place here (use-stream-budget.ts). */
  readonly streams: AddressBudget;
}

export interface GraphQLDoorDeps {
  schema: GraphQLSchema;
  services: Services;
  limiter: RateLimiter;
  logger: Logger;
  adminToken: string;
  publicUrl: string;
  maxBodyBytes: number;
  /** CORS_ORIGINS (docs/edge.md#cors); null: any origin, without credentials. */
  corsOrigins: readonly string[] | null;
  now: () => number;
  /** GRAPHQL_TRUSTED_DOCUMENTS (docs/graphql.md#trusted-documents). @default 'allow' */
  trustedDocuments?: TrustedDocumentsMode;
  /** GRAPHQL_PRODUCTION (docs/graphql.md#production). @default false */
  production?: boolean;
  /** Where operations and open subscriptions are counted (docs/operations.md#metrics). @default NO_METRICS */
  metrics?: GatewayMetrics;
  /**
   * Carries graphql-sse's single connection mode between instances (single-connection-mode.ts). @default a bus of
   * its own, in memory (one instance)
   */
  bus?: EventBus;
  /** LOG_REQUEST_SCOPE (docs/operations.md#request-logs): what runs here runs inside the request scope. @default false */
  requestScope?: boolean;
  /** What one client address may hold open at once (docs/edge.md#bounds). @default DEFAULT_ADDRESS_BOUNDS */
  addressBounds?: AddressBounds;
}

export function createGraphQLDoor(deps: GraphQLDoorDeps): GraphQLDoor {
  const createContext = createContextFactory(deps);
  const documents = createDocumentCache();
  const cors = new CorsPolicy(deps.corsOrigins);
  const streams = new StreamShutdown();
  const isStaff = (authorization: string | null | undefined) => viewerFromAuthorization(authorization, deps.adminToken).isStaff;
  const trusted = new TrustedDocuments({ mode: deps.trustedDocuments ?? 'allow', operations: TRUSTED_OPERATIONS, isStaff });
  const hardening = new ProductionHardening({ on: deps.production ?? false, isStaff });
  const metrics = deps.metrics ?? NO_METRICS;
  const bounds = deps.addressBounds ?? DEFAULT_ADDRESS_BOUNDS;
  const connections = new AddressBudget(bounds.connections, bounds.ipv6Prefix);
  const streamBudget = new AddressBudget(bounds.streams, bounds.ipv6Prefix);
  const singleConnection = new SingleConnectionMode({ bus: deps.bus ?? createEventBus().bus, secret: deps.adminToken, streams, maxBodyBytes: deps.maxBodyBytes });
  const yoga = createYogaServer({
    schema: deps.schema,
    limiter: deps.limiter,
    logger: deps.logger,
    maxBodyBytes: deps.maxBodyBytes,
    createContext,
    documents,
    cors,
    streams,
    trusted,
    hardening,
    metrics,
    singleConnection: singleConnection.plugin,
    streamBudget,
  });
  singleConnection.attach(yoga);
  const fastPath = new FastJsonPath(yoga, { schema: deps.schema, limiter: deps.limiter, createContext, documents, cors, trusted, hardening, metrics, services: deps.services, scoped: deps.requestScope ?? false });
  // With tracing on the path steps aside on purpose (yoga-server.ts); otherwise its guard found a plugin it skips.
  if (!fastPath.on && !tracingOn()) deps.logger.warn('graphql: a plugin hooks a step the fast JSON path skips; every request runs through yoga');
  const node = new GraphQLNodeHandler(yoga, fastPath, deps.maxBodyBytes, connections, cors, deps.requestScope ?? false);
  return {
    yoga,
    compiledPathOn: fastPath.on,
    async fetch(request, serverContext) {
      // The same 413 as over node:http when the length is known; yoga's maxRequestBodySize counts the others.
      if (Number(request.headers.get('content-length') ?? 0) > deps.maxBodyBytes) {
        const answer = tooLarge(request.headers.get('accept'));
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      }
      const answer = await yoga.fetch(request, serverContext);
      // Re-made with the caller's Response: yoga's headers may be immutable, and a DOM test environment's Response
      // (happy-dom's) reads only a standard ReadableStream, not the stream of yoga's fetch classes.
      const body = answer.body && WebReadableStream.from(answer.body as unknown as AsyncIterable<Uint8Array>);
      return new Response(body as ReadableStream | null, answer);
    },
    handleNode: node.handle.bind(node),
    endStreams: (final = false) => {
      // First: the single connection mode's operations end without `complete`, so their clients come back.
      singleConnection.dispose();
      streams.endAll(final);
    },
    trusted,
    hardening,
    connections,
    streams: streamBudget,
  };
}
