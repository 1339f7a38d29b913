/**
 * The process: config → database and migrations → schedulers → HTTP server → print generated credentials once
 * → on SIGTERM/SIGINT stop accepting, finish requests in flight, close sockets and the database, exit 0.
 *
 * Only the configuration's modules are loaded before the configuration is read: the server's (GraphQL, the doors,
 * the drivers) take a second or two of a core to load, and a refused configuration is told without them.
 */
import { within } from './kernel/bounded-wait.ts';
import { ConfigError, loadConfig, type Config } from './kernel/config.ts';
import { GUESSABLE_BELOW } from './kernel/credential-strength.ts';
import { createLogger } from './kernel/logger.ts';

/**
 * How long closing the gateway (jobs, Redis, the database) may take once the server has closed (requests in flight
 * get 2 s): webhook attempts in flight get 3 s to be answered and recorded (webhook-client.ts), and 1 s is left to
 * close. Usually it takes milliseconds (docs/running.md#shutdown).
 */
const DISPOSE_WITHIN_MS = 4_000;

async function main(): Promise<void> {
  let loaded;
  try {
    loaded = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`sleeve-gateway: bad configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { generated } = loaded;
  const config = await withPortChosen(loaded.config);
  const logger = createLogger(config.logLevel);
  // Refused where NODE_ENV=production (loadConfig); here, a laptop or a test: said once, never the value.
  for (const variable of loaded.guessable) logger.warn(`${variable} is shorter than ${GUESSABLE_BELOW} characters: it can be found by trying. Make one with: openssl rand -base64 32`, { variable });
  // docs/operations.md#tracing: the SDK is loaded only when an OTLP endpoint is set, before anything is built.
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? (await import('./operations/tracing-sdk.ts')).startTracing() : undefined;
  // docs/operations.md#when-redis-goes-away: its gauge is the process's, so it is set up before the gateway lists them.
  const redisLink = config.redisUrl ? (await import('./operations/redis-link.ts')).reportRedisLink(logger, { metrics: config.metricsEnabled }) : undefined;
  const { createGateway, startServer } = await import('./server.ts');
  const gateway = await createGateway({ config, logger, generated: generated.map((g) => g.name) });
  redisLink?.watch(gateway.bus.redisLink);
  const server = await startServer(gateway, { port: config.port, host: config.host });

  // Signals are handled before the "listening" line, so a supervisor that stops us right after it is obeyed.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal, drainSeconds: config.drainSeconds });
    // docs/operations.md#readiness: /ready says 503 at once; the listener closes after DRAIN_SECONDS.
    gateway.drain();
    if (config.drainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1_000));
    // A drain says a proxy or balancer sends here: its kept-alive connections are retired one answer at a time, never
    // closed under its request (src/http-server.ts). Without one, nothing waits for idle connections.
    await server.close(undefined, { idle: config.drainSeconds > 0 ? 'retire' : 'close' });
    // Bounded: a database that answers nothing (frozen, a network dropping packets) held the exit until the query
    // timeout, 10 s, or for ever with none (an operator's review). What was not committed is rolled back by
    // PostgreSQL when the connection goes, and the leases and due times of what was under way bring it back.
    const closed = await within(gateway.dispose().then(() => true), DISPOSE_WITHIN_MS, () => false);
    if (!closed) logger.warn('stopping without waiting for the database or Redis, which did not answer', { waitedMs: DISPOSE_WITHIN_MS });
    await tracing?.shutdown().catch(() => undefined); // a collector that is down must not hold the exit
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  if (generated.length > 0) {
    // Printed once, here, for the operator; never logged. stderr: stdout is the log, one JSON object a line, and a
    // shipper would have kept the secrets with the logs.
    process.stderr.write('Generated for this run (set these variables to keep them):\n');
    for (const { name, value } of generated) process.stderr.write(`  ${name}=${value}\n`);
  }
  // Whatever LOG_LEVEL: scripts and supervisors read the URL (the port chosen, with PORT=0) from "listening on URL ",
  // the URL followed by a space, so their `listening on (http://\S+)` takes the URL and not the JSON after it.
  createLogger('info').info(`listening on ${server.url} (GraphQL at /graphql)`, {
    url: server.url,
    graphql: `${server.url}/graphql`,
    database: config.database.kind === 'sqlite' ? config.database.path : 'postgres',
  });
}

/**
 * PORT=0 with PUBLIC_URL unset: the port is chosen before anything is built, so that the links the gateway hands out
 * (payUrl, images, dashboard links: `http://localhost:$PORT`) name the port it listens on, not port 0. The port is
 * asked of the system here and listened on a moment later; another process taking it in between fails the start.
 * A HOST nobody can listen on stops start-up here, named, as any other bad value (exit 2).
 */
async function withPortChosen(config: Config): Promise<Config> {
  if (config.port !== 0 || process.env.PUBLIC_URL?.trim()) return config;
  const { createServer } = await import('node:net');
  const probe = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, config.host, () => resolve((probe.address() as { port: number }).port));
  }).catch((error: NodeJS.ErrnoException) => {
    process.stderr.write(`sleeve-gateway: bad configuration: HOST: cannot listen on "${config.host}" (${error.code ?? error.message}).\n`);
    process.exit(2);
  });
  await new Promise((resolve) => probe.close(resolve));
  return { ...config, port, publicUrl: `http://localhost:${port}` };
}

main().catch(async (error: unknown) => {
  // The operator's own configuration failed: the driver's words (which host refused) say more than an API answer.
  const { ConnectionLost } = await import('./db/connection-loss.ts');
  if (error instanceof ConfigError) {
    // Found once the database could be read (the vault's key): a bad configuration like any other.
    process.stderr.write(`sleeve-gateway: bad configuration: ${error.message}\n`);
    process.exit(2);
  }
  const reason = error instanceof ConnectionLost ? (error.cause as Error) : error;
  const { code, syscall, hostname } = (reason ?? {}) as NodeJS.ErrnoException & { hostname?: string };
  // The address to listen on, not a database's host that does not resolve: the operator's HOST, named as any other
  // bad value is.
  const host = process.env.HOST?.trim();
  if ((syscall === 'listen' && code === 'EADDRNOTAVAIL') || (syscall === 'getaddrinfo' && host !== undefined && hostname === host)) {
    process.stderr.write(`sleeve-gateway: bad configuration: HOST: cannot listen on "${host ?? ''}" (${code}).\n`);
    process.exit(2);
  }
  if (syscall === 'listen' && code === 'EADDRINUSE') {
    process.stderr.write(`sleeve-gateway: failed to start: PORT ${process.env.PORT ?? 4000} is in use by another process.\n`);
    process.exit(1);
  }
  process.stderr.write(`sleeve-gateway: failed to start: ${reason instanceof Error ? reason.message : String(reason)}\n`);
  process.exit(1);
});
