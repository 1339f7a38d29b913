/**
 * The composition root: the only file in src/ that imports a front door. It wires config, database, services,
 * schedulers and the two doors into one gateway, usable in memory (fetch) or on a node:http server.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { createRestApi } from '../rest-compat/api.ts';
import { fromFetch, toFetch } from '../rest-compat/fetch-adapter.ts';
import { fromNode, toNode } from '../rest-compat/node-adapter.ts';
import type { RoutedRequest } from '../rest-compat/routes.ts';
import { familyOf } from '../rest-compat/path-family.ts';
import { createGraphQLDoor, GRAPHQL_PATH } from '../graphql-server/graphql-door.ts';
import { lazyMcpDoor, MCP_PATH } from '../mcp/lazy-door.ts';
import { attachWebSocket, type WebSocketTransport } from '../graphql-server/ws-transport.ts';
import { schema } from '../schema/index.ts';
import { systemClock, type Clock } from './kernel/clock.ts';
import { loadConfig, type Config } from './kernel/config.ts';
import { checkedSettings, type GatewayEnv } from './kernel/setting-names.ts';
import { createDatabase, type AppDatabase } from './db/database.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { createLogger, runInRequestScope, type Logger } from './kernel/logger.ts';
import { CLIENT_CLOSED_REQUEST, rawHeader } from './http/node-request.ts';
import { startDispatcher } from './notifications/dispatcher-job.ts';
import type { BackgroundDeps, Disposable } from './jobs/background.ts';
import { startEvidenceReminders } from './disputes/evidence-reminder-job.ts';
import { startHoldExpiry } from './orders/hold-expiry-job.ts';
import { startThreeDsCompletion } from './risk/three-ds-job.ts';
import { startVaultUpkeep } from './payments/vault-upkeep-job.ts';
import { startPaymentReconciliation } from './payments/reconciliation-job.ts';
import { createHoldTicker } from './orders/hold-ticker.ts';
import { createRateLimiter } from './kernel/rate-limiter.ts';
import { ClientAddresses } from './kernel/client-address.ts';
import { CorsPolicy } from './kernel/cors.ts';
import { startCacheSync } from './orders/cache-sync-service.ts';
import { createServices, type Services } from './services.ts';
import { Readiness } from './operations/readiness.ts';
import { createMetrics, NO_METRICS } from './operations/metrics.ts';
import { registerDatabaseGauges } from './operations/metrics-gauges.ts';
import { RequestLog, requestIdOf, UNMATCHED_ROUTE } from './operations/request-log.ts';
import { TRUSTED_OPERATIONS } from './pages/trusted-operations.ts';
import { contextFromHeaders, inSpan, SpanKind, SpanStatusCode, tracingOn } from './operations/tracing.ts';

export interface GatewayOptions {
  /**
   * Settings as environment variables (docs/running.md#configuration; a misspelt name rejects): by default an
   * in-memory database, silent logs and generated secrets, so `createGateway()` alone works with no socket or file.
   */
  env?: GatewayEnv;
  /** A configuration already loaded (main.ts); wins over `env`. */
  config?: Config;
  /** With `config`: the names of its secrets that were generated because their variable was unset (LoadedConfig). */
  generated?: readonly string[];
  /** The clock every service and scheduler reads; pass a manual clock to move time in tests. */
  clock?: Clock;
  logger?: Logger;
  /** Client address of a Fetch request (rate limits); there is no socket to read it from. */
  clientAddress?: (request: Request) => string;
}

export interface Gateway {
  readonly config: Config;
  readonly services: Services;
  readonly schema: GraphQLSchema;
  readonly clock: Clock;
  readonly database: AppDatabase;
  readonly bus: EventBus;
  /** The whole app as a Fetch handler: REST paths, GraphQL at /graphql, pages. */
  fetch(request: Request): Promise<Response>;
  /** The whole app as a node:http request listener. */
  handleNode(req: IncomingMessage, res: ServerResponse): void;
  /** Serves GraphQL over WebSocket (graphql-ws) on this server's /graphql. */
  attachWebSocket(server: Server): WebSocketTransport;
  /** Ends every open SSE stream without `complete`, so its client connects again (docs/edge.md#shutdown-of-streams). */
  endStreams(): void;
  /** From now on `/ready` answers 503 (SIGTERM: docs/operations.md#readiness); everything else is served as before. */
  drain(): void;
  /** startServer tells the gateway of each server started on it: dispose() closes them first. */
  servedBy(close: () => Promise<void>): void;
  /** Closes the servers started on it (startServer), stops the schedulers and closes the database. */
  dispose(): Promise<void>;
}

export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const loaded = options.config ? { config: options.config, generated: (options.generated ?? []).map((name) => ({ name })) } : loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent', ...checkedSettings(options.env) });
  const { config } = loaded;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = await createDatabase(config.database, { logger });
  await database.migrate();
  const events = createEventBus({ redisUrl: config.redisUrl, channelPrefix: config.redisPrefix, onListenerError: (error, topic) => logger.error('event listener failed', { topic, error }) });
  const bus = events.bus;
  const ticker = createHoldTicker(clock);
  const services = createServices({ database, clock, bus, logger, ticker, config, publicUrl: config.publicUrl, holdSeconds: config.holdSeconds });
  // A generated key never replaces the one a shared database holds. Refused: nothing stays open in the caller.
  const keepStoredKey = database.caps.multipleConnections && loaded.generated.some((g) => g.name === 'VENDOR_API_KEY');
  try {
    await services.sites.ensureBootstrap(config.vendorSiteId, config.vendorApiKey, { keepStoredKey });
    await Promise.all([services.payments.checkVaultKey(), services.webhooks.checkVaultKey()]);
  } catch (error) {
    await Promise.all([events.dispose(), database.destroy()]);
    throw error;
  }
  // docs/operations.md#metrics: this gateway's own registry (METRICS=off: nothing counted, no /metrics).
  const metrics = config.metricsEnabled ? createMetrics({ knownOperations: TRUSTED_OPERATIONS.map((o) => o.name) }) : NO_METRICS;
  if (metrics.registry) registerDatabaseGauges(metrics.registry, database.db, clock);
  // Shared by every instance through Redis when REDIS_URL is set (docs/edge.md#rate-limits-at-a-venue).
  const limiter = createRateLimiter(config.rateLimits, clock, { redisUrl: config.redisUrl, prefix: config.redisPrefix, onRefusal: (group) => metrics.rateLimited(group) });
  await limiter.connected?.();
  // docs/operations.md#readiness: the database (migrations applied), and Redis for events and limits when set.
  const readiness = new Readiness([
    { name: 'database', check: () => database.check() },
    ...(config.redisUrl ? [{ name: 'redis', check: () => Promise.all([events.check(), limiter.check()]).then(() => undefined) }] : []),
  ]);
  // LOG_REQUEST_SCOPE=on: every other line a request causes carries its id too (no point when nothing is logged).
  const scoped = config.logRequestScope && (options.logger !== undefined || config.logLevel !== 'silent');
  const metricsEndpoint = metrics.registry ? { registry: metrics.registry, token: config.metricsToken } : undefined;
  const rest = createRestApi({ services, limiter, logger, config, publicUrl: config.publicUrl, readiness, metrics: metricsEndpoint });
  const graphql = createGraphQLDoor({
    schema, services, limiter, logger, metrics, bus, requestScope: scoped, now: () => clock.now(),
    adminToken: config.adminToken, publicUrl: config.publicUrl, maxBodyBytes: config.maxBodyBytes, corsOrigins: config.corsOrigins,
    trustedDocuments: config.graphqlTrustedDocuments, production: config.graphqlProduction,
    addressBounds: { ...config.addressBounds, ipv6Prefix: config.rateLimits.ipv6Prefix },
  });
  // docs/agents.md#mcp-server: the MCP door, on the node server only (its streams need a socket), loaded on its first request.
  const mcp = lazyMcpDoor({ services, limiter, logger, publicUrl: config.publicUrl, holdSeconds: config.holdSeconds, bus, config, connections: graphql.connections });
  const socketCors = new CorsPolicy(config.corsOrigins);
  const jobDeps: BackgroundDeps = { services, database, config, clock, bus, logger };
  const background: Disposable[] = [
    startCacheSync(bus, services),
    await startHoldExpiry({ orders: services.orders, clock, bus, logger }),
    await startDispatcher({ ...jobDeps, metrics }),
    await startThreeDsCompletion(jobDeps),
    await startEvidenceReminders(jobDeps),
    await startVaultUpkeep(jobDeps),
    await startPaymentReconciliation(jobDeps),
  ];
  // docs/edge.md#client-address: computed once where a request enters, then used by every limit of both doors.
  const addresses = new ClientAddresses(config.trustProxy);
  const peerOf = options.clientAddress ?? (() => 'local');
  const clientOf = (request: Request) => addresses.ofFetch(request, peerOf(request));

  // docs/operations.md#request-logs: a request line (and the HTTP histogram) for every request.
  const requests = new RequestLog(logger, metrics);

  /**
   * Writes run inside the request scope (src/kernel/logger.ts says what it costs); reads of document 1's paths
   * (options, lookups, pages, images, /health, /ready, /metrics) log nothing but their request line and, on a
   * failure, the router's own line, which names the id. /graphql is left to its door, which scopes what it runs.
   */
  function serveNodeScoped(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<string> {
    const url = req.url ?? '/';
    const method = req.method;
    const write = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
    const query = url.indexOf('?');
    const scope = scoped && !isGraphQLPath(url) && (write || familyOf(query < 0 ? url : url.slice(0, query)) !== 'ordering');
    return scope ? runInRequestScope(requestId, serveNode, req, res, requestId) : serveNode(req, res, requestId);
  }

  /** Serves one request; answers the route template it matched (for the trace's span name). */
  async function serveNode(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<string> {
    const started = performance.now();
    const client = addresses.of(req);
    let route = UNMATCHED_ROUTE;
    try {
      if (isGraphQLPath(req.url ?? '/')) {
        route = GRAPHQL_PATH;
        await graphql.handleNode(req, res, { clientAddress: client, requestId });
      } else if (isMcpPath(req.url ?? '/')) {
        route = MCP_PATH;
        res.setHeader('x-request-id', requestId); // the SDK's transport writes its own heads; node merges this in
        await mcp.handleNode(req, res, { clientAddress: client });
      } else {
        const request = fromNode(req, config.maxBodyBytes, client);
        request.requestId = requestId;
        const response = await rest.handle(request);
        route = request.route ?? UNMATCHED_ROUTE;
        response.headers['x-request-id'] = requestId; // with writeHead's own headers: setHeader would cost more
        toNode(response, res, req.method === 'HEAD');
      }
    } catch (error) {
      failNode(req, res, route, requestId, error);
    }
    requests.finish(requestId, req.method ?? 'GET', route, res.statusCode, started, client);
    return route;
  }

  /**
   * docs/operations.md#tracing: the request as a server span, child of the caller's `traceparent`, named by its
   * route template once matched. Only while tracing is on.
   */
  function tracedServe(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const method = req.method ?? 'GET';
    return inSpan(method, SpanKind.SERVER, { 'http.request.method': method }, async (span) => {
      const route = await serveNodeScoped(req, res, requestId);
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }, contextFromHeaders(req.headers));
  }

  async function serveFetch(request: Request, requestId: string): Promise<Response> {
    const started = performance.now();
    const client = clientOf(request);
    let route = GRAPHQL_PATH;
    let response: Response;
    if (new URL(request.url).pathname === GRAPHQL_PATH) {
      response = await graphql.fetch(request, { clientAddress: client, requestId });
      response.headers.set('x-request-id', requestId);
    } else {
      const req: RoutedRequest = fromFetch(request, client, config.maxBodyBytes);
      req.requestId = requestId;
      const answer = await rest.handle(req);
      route = req.route ?? UNMATCHED_ROUTE;
      answer.headers['x-request-id'] = requestId;
      response = toFetch(answer, request.method === 'HEAD');
    }
    requests.finish(requestId, request.method, route, response.status, started, client);
    return response;
  }

  function failNode(req: IncomingMessage, res: ServerResponse, route: string, requestId: string, error: unknown): void {
    if (req.destroyed && !req.complete) {
      // The client left mid-request (yoga's body read fails so): not ours to log as a failure (node-request.ts).
      if (!res.headersSent) res.writeHead(CLIENT_CLOSED_REQUEST, { 'x-request-id': requestId });
      res.end();
      return;
    }
    // The route, not req.url: a URL may carry a payToken in its query string.
    logger.error('request failed', { error, route, requestId });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
    res.end(JSON.stringify({ ok: false, code: 'internal', error: 'Something went wrong on our side.', retryable: true }));
  }

  const isMcpPath = (url: string): boolean => url === MCP_PATH || url.startsWith(MCP_PATH + '?');
  const isGraphQLPath = (url: string): boolean => url === GRAPHQL_PATH || url.startsWith(GRAPHQL_PATH + '?');

  let disposed = false;
  /** Closers of the servers started on this gateway (startServer), closed by dispose(). */
  const servers: Array<() => Promise<void>> = [];
  return {
    config,
    services,
    schema,
    clock,
    database,
    bus,
    fetch(request) {
      // A test holding a gateway past its dispose() would otherwise get 200 "Unexpected error." from a closed database.
      if (disposed) return Promise.reject(new Error('This gateway was disposed: create a new one (createGateway) for each test.'));
      const requestId = requestIdOf(request.headers.get('x-request-id'));
      // In memory (tests, a frontend team's gateway): every request but a stream runs in the scope; speed is no issue.
      const stream = request.headers.get('accept')?.includes('text/event-stream') ?? false;
      return scoped && !stream ? runInRequestScope(requestId, serveFetch, request, requestId) : serveFetch(request, requestId);
    },
    // A message over MAX_BODY_BYTES closes its socket with 1009 before any work (docs/edge.md#bounds).
    attachWebSocket: (server) =>
      attachWebSocket(
        server,
        // `requests`: each upgrade, opened or refused, is a request line and a count too (docs/operations.md#request-logs).
        { yoga: graphql.yoga, trusted: graphql.trusted, hardening: graphql.hardening, requests, clientAddressOf: (req) => addresses.of(req), allowsOrigin: (origin) => socketCors.allowsSocket(origin), connections: graphql.connections, streams: graphql.streams },
        { maxPayload: config.maxBodyBytes },
      ),
    endStreams: () => {
      graphql.endStreams();
      mcp.endStreams();
    },
    drain: () => void readiness.drain(),
    servedBy: (close) => void servers.push(close),
    handleNode(req, res) {
      // No closures here: this runs for every request (see rest-compat/node-adapter.ts on tsx's __name).
      const requestId = requestIdOf(rawHeader(req, 'x-request-id'));
      if (tracingOn()) {
        void tracedServe(req, res, requestId);
        return;
      }
      void serveNodeScoped(req, res, requestId);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      // Streams still open end with `complete` (nothing will come back), instead of hanging their tests; then the
      // servers started on it (startServer), whose close would end them without it. main.ts's SIGTERM closed them first.
      graphql.endStreams(true);
      await Promise.all(servers.map((close) => close()));
      for (const item of background.reverse()) await item.dispose();
      ticker.dispose();
      await mcp.dispose();
      await events.dispose();
      await limiter.dispose();
      await database.destroy();
    },
  };
}
export { startServer, type RunningServer, type ServedGateway } from './http-server.ts';
