/**
 * The composition root: the only file in src/ that imports a front door. It wires config, database, services,
 * schedulers and the two doors into one gateway, usable in memory (fetch) or on a node:http server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { GraphQLSchema } from 'graphql';
import { createRestApi } from '../rest-compat/api.ts';
import { fromFetch, toFetch } from '../rest-compat/fetch-adapter.ts';
import { fromNode, toNode } from '../rest-compat/node-adapter.ts';
import { createGraphQLDoor, GRAPHQL_PATH } from '../graphql-server/graphql-door.ts';
import { attachWebSocket, type WebSocketTransport } from '../graphql-server/ws-transport.ts';
import { schema } from '../schema/index.ts';
import { systemClock, type Clock } from './kernel/clock.ts';
import { loadConfig, type Config } from './kernel/config.ts';
import { createDatabase, type AppDatabase } from './db/database.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { createLogger, type Logger } from './kernel/logger.ts';
import { startDispatcher } from './notifications/dispatcher-job.ts';
import type { BackgroundDeps, Disposable } from './jobs/background.ts';
import { startEvidenceReminders } from './disputes/evidence-reminder-job.ts';
import { startHoldExpiry } from './orders/hold-expiry-job.ts';
import { startThreeDsCompletion } from './risk/three-ds-job.ts';
import { startNetworkTokenProvisioning } from './payments/network-token-job.ts';
import { startPaymentReconciliation } from './payments/reconciliation-job.ts';
import { createHoldTicker } from './orders/hold-ticker.ts';
import { createRateLimiter } from './kernel/rate-limiter.ts';
import { ClientAddresses } from './kernel/client-address.ts';
import { CorsPolicy } from './kernel/cors.ts';
import { startCacheSync } from './orders/cache-sync-service.ts';
import { createServices, type Services } from './services.ts';

export interface GatewayOptions {
  /**
   * Configuration as environment variables (docs/running.md#configuration). Defaults to an in-memory database, silent logs and
   * generated secrets, so `createGateway()` alone gives a working app with no socket and no files.
   */
  env?: Record<string, string | undefined>;
  /** A configuration already loaded (main.ts); wins over `env`. */
  config?: Config;
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
  /** Ends every open SSE stream with its `complete` event (docs/edge.md#shutdown-of-streams). */
  endStreams(): void;
  /** Stops the schedulers and closes the database. */
  dispose(): Promise<void>;
}

export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const config =
    options.config ?? loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent', ...options.env }).config;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = await createDatabase(config.database);
  await database.migrate();
  const events = createEventBus({ redisUrl: config.redisUrl, channelPrefix: config.redisPrefix });
  const bus = events.bus;
  const ticker = createHoldTicker(clock);
  const services = createServices({ database, clock, bus, logger, ticker, config, publicUrl: config.publicUrl, holdSeconds: config.holdSeconds });
  await services.sites.ensureBootstrap(config.vendorSiteId, config.vendorApiKey);
  // Shared by every instance through Redis when REDIS_URL is set (docs/edge.md#rate-limits-at-a-venue).
  const limiter = createRateLimiter(config.rateLimits, clock, { redisUrl: config.redisUrl, prefix: config.redisPrefix });
  const rest = createRestApi({ services, limiter, logger, config, publicUrl: config.publicUrl });
  const graphql = createGraphQLDoor({
    schema,
    services,
    limiter,
    logger,
    adminToken: config.adminToken,
    publicUrl: config.publicUrl,
    maxBodyBytes: config.maxBodyBytes,
    corsOrigins: config.corsOrigins,
    now: () => clock.now(),
  });
  const socketCors = new CorsPolicy(config.corsOrigins);
  const jobDeps: BackgroundDeps = { services, database, config, clock, bus, logger };
  const background: Disposable[] = [
    startCacheSync(bus, services),
    await startHoldExpiry({ orders: services.orders, clock, bus, logger }),
    await startDispatcher(jobDeps),
    await startThreeDsCompletion(jobDeps),
    await startEvidenceReminders(jobDeps),
    await startNetworkTokenProvisioning(jobDeps),
    await startPaymentReconciliation(jobDeps),
  ];
  // docs/edge.md#client-address: computed once where a request enters, then used by every limit of both doors.
  const addresses = new ClientAddresses(config.trustProxy);
  const peerOf = options.clientAddress ?? (() => 'local');
  const clientOf = (request: Request) => addresses.ofFetch(request, peerOf(request));

  async function serveNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (isGraphQLPath(req.url ?? '/')) {
        await graphql.handleNode(req, res, { clientAddress: addresses.of(req) });
        return;
      }
      const request = fromNode(req, config.maxBodyBytes, addresses.of(req));
      toNode(await rest.handle(request), res, req.method === 'HEAD');
    } catch (error) {
      failNode(req, res, error);
    }
  }

  function failNode(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    logger.error('request failed', { error, path: req.url });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ ok: false, code: 'internal', error: 'Something went wrong on our side.', retryable: true }));
  }

  function isGraphQLPath(url: string): boolean {
    return url === GRAPHQL_PATH || url.startsWith(GRAPHQL_PATH + '?');
  }

  return {
    config,
    services,
    schema,
    clock,
    database,
    bus,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === GRAPHQL_PATH) return graphql.fetch(request, { clientAddress: clientOf(request) });
      const req = fromFetch(request, clientOf(request), config.maxBodyBytes);
      return toFetch(await rest.handle(req), request.method === 'HEAD');
    },
    // A message over MAX_BODY_BYTES closes its socket with 1009 before any work (docs/edge.md#bounds).
    attachWebSocket: (server) =>
      attachWebSocket(
        server,
        { yoga: graphql.yoga, clientAddressOf: (req) => addresses.of(req), allowsOrigin: (origin) => socketCors.allowsSocket(origin) },
        { maxPayload: config.maxBodyBytes },
      ),
    endStreams: () => graphql.endStreams(),
    handleNode(req, res) {
      // No closures here: this runs for every request (see rest-compat/node-adapter.ts on tsx's __name).
      void serveNode(req, res);
    },
    async dispose() {
      for (const item of background.reverse()) await item.dispose();
      ticker.dispose();
      await events.dispose();
      await limiter.dispose();
      await database.destroy();
    },
  };
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  readonly ws: WebSocketTransport;
  /**
   * Stops accepting, ends SSE streams with `complete`, closes WebSockets with 1001, lets requests in flight finish,
   * closes each connection as it goes idle, and destroys what is left after `graceMs` (default 2 s, so that the
   * process exits within 3 s whatever clients are open: docs/edge.md#shutdown-of-streams).
   */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(gateway: Gateway, { port, host }: { port: number; host: string }): Promise<RunningServer> {
  // docs/edge.md#bounds: a request (headers and body) not received within REQUEST_TIMEOUT_SECONDS is answered 408
  // and its connection closed. node checks at connectionsCheckingInterval (30 s by default, which would let a slow
  // sender hold on for up to twice the timeout), so every second, or twice per timeout when it is shorter.
  const requestTimeout = gateway.config.requestTimeoutSeconds * 1_000;
  const server = createServer(
    { keepAliveTimeout: 5_000, requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1_000, requestTimeout / 2) },
    gateway.handleNode,
  );
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const ws = gateway.attachWebSocket(server);
  const actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    ws,
    port: actualPort,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    async close(graceMs = 2_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // SSE streams finish: yoga writes `complete` and ends each response (docs/edge.md#shutdown-of-streams).
      gateway.endStreams();
      // Subscribers get 1001 "Going away" and reconnect elsewhere; not awaited before the grace timer is set, since
      // a client that never answers the close handshake would hold it (ws waits 30 s).
      const wsClosed = ws.dispose();
      // A response that ends after close() (a stream, a request in flight) leaves a keep-alive connection open:
      // closed as soon as it is idle, not when the grace runs out.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, graceMs);
      timer.unref();
      await Promise.all([closed, wsClosed]);
      clearInterval(idle);
      clearTimeout(timer);
    },
  };
}
