/**
 * The two ways into the gateway that every GraphQL suite runs through: `fetch`, the in-memory gateway
 * (`gateway.fetch`, yoga's Fetch handler, as frontend teams' tests use it), and `node`, the production entry
 * (`startServer`: the server's real node:http handler on a real port, with its fast JSON path). A suite is
 * written once and run over both:
 *
 *   describe.each(TRANSPORTS)('over %s', (transport) => {
 *     it('…', async () => { const t = await gatewayOver(transport); … });
 *   });
 *
 * `gql`, `rest` and `createOrder` behave as the in-memory gateway's helpers (support/gateway.ts) do, over the chosen
 * transport; `request` sends anything else. Servers are closed after each test.
 */
import { startServer, type RunningServer } from '../../src/server.ts';
import type { Logger } from '../../src/kernel/logger.ts';
import { afterThisTest, doorHelpers, testGateway, type TestGateway } from './gateway.ts';

export const TRANSPORTS = ['fetch', 'node'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface TransportGateway extends TestGateway {
  transport: Transport;
  /** The running server (node transport only). */
  server: RunningServer | undefined;
  /** Sends a request to `path` (with its query) over this transport. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Where the in-memory gateway's requests are addressed (its PUBLIC_URL in tests). */
const IN_MEMORY_ORIGIN = 'http://sleeve.test';

export async function gatewayOver(transport: Transport, options: Parameters<typeof testGateway>[0] = {}): Promise<TransportGateway> {
  const t = await testGateway(options);
  let server: RunningServer | undefined;
  if (transport === 'node') {
    const running = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    afterThisTest(() => running.close(1_000));
    server = running;
  }

  function request(path: string, init: RequestInit = {}): Promise<Response> {
    if (!server) return t.gateway.fetch(new Request(IN_MEMORY_ORIGIN + path, init));
    // A deadline, so that a request the server never answers fails the test instead of hanging it.
    return fetch(server.url + path, { ...init, signal: init.signal ?? AbortSignal.timeout(10_000) });
  }

  return { ...t, transport, server, request, ...doorHelpers(request) };
}

/** yoga logs this (debug) for every request its pipeline processes; the fast JSON path never goes near it. */
const YOGA_PARSES = 'Parsing request to extract GraphQL parameters';

export interface CountingGateway extends TransportGateway {
  /** Requests yoga's own pipeline has processed so far (over the socket and in memory alike). */
  yogaRuns(): number;
  /** Error lines logged so far (yoga logs each error it masks). */
  errorLines(): number;
}

/** A gateway over `transport` whose logger counts what yoga does: which path answered a request is read from it. */
export async function gatewayCountingYoga(transport: Transport, env: Record<string, string> = {}): Promise<CountingGateway> {
  let yogaRuns = 0;
  let errorLines = 0;
  const logger: Logger = {
    debug: (_message, fields) => {
      if (fields?.detail === YOGA_PARSES) yogaRuns++;
    },
    info: () => {},
    warn: () => {},
    error: () => {
      errorLines++;
    },
  };
  const t = await gatewayOver(transport, { env, logger });
  return { ...t, yogaRuns: () => yogaRuns, errorLines: () => errorLines };
}
