/**
 * A gateway on a node:http server (src/server.ts makes the gateway): the listening socket, graphql-ws on it, the
 * bounds on slow senders, and the shutdown that ends streams and closes sockets in order.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';

/** graphql-ws on the server (graphql-server/ws-transport.ts). */
interface SocketTransport {
  /** Closes every client with 1001 "Going away", then the WebSocket server. */
  dispose(): Promise<void>;
  clients(): number;
}

/** What a server needs of a gateway: src/server.ts's Gateway. */
export interface ServedGateway {
  readonly config: { readonly requestTimeoutSeconds: number };
  handleNode(req: IncomingMessage, res: ServerResponse): void;
  attachWebSocket(server: Server): SocketTransport;
  endStreams(): void;
  /** Told of each server started on it, so that the gateway's dispose() closes the server first. */
  servedBy?(close: () => Promise<void>): void;
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  readonly ws: SocketTransport;
  /**
   * Stops accepting, ends SSE streams (without `complete`: their clients connect again), closes WebSockets with 1001,
   * lets requests in flight finish, ends each kept-alive connection (`idle`, below), and destroys what is left after
   * `graceMs` (default 2 s, so that the process exits within 3 s whatever clients are open:
   * docs/edge.md#shutdown-of-streams). Once: a second call waits for the first. The gateway's dispose() calls it.
   */
  close(graceMs?: number, how?: { idle?: IdleConnections }): Promise<void>;
}

/**
 * What close() does with a kept-alive connection that carries no request at that moment.
 *
 * - `close` (the default, node's own): closed at once, and each later one as it goes idle. Quick, and right for a
 *   server no proxy sends to (a test's, a frontend team's, one stopped with DRAIN_SECONDS=0).
 * - `retire` (SIGTERM with DRAIN_SECONDS set, src/main.ts; docs/running.md#shutdown): left open. A request that
 *   comes on it is served and answered `Connection: close`, and the connection ends after the answer; one nobody
 *   uses ends when its client closes it (nginx after 1 s, deploy/nginx) or at `graceMs`. HTTP/1.1 has no way to
 *   close an idle connection safely: the client may be sending a request on it at that moment, and a proxy never
 *   sends a POST it has sent again elsewhere. Closed at once, a rolling restart through deploy/nginx under load
 *   answered 2 to 14 POSTs 503 per four restarts (test/deploy/nginx-rolling.test.ts).
 */
export type IdleConnections = 'close' | 'retire';

export async function startServer(gateway: ServedGateway, { port, host }: { port: number; host: string }): Promise<RunningServer> {
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
  let closing: Promise<void> | undefined;
  const running: RunningServer = {
    server,
    ws,
    port: actualPort,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close: (graceMs = 2_000, { idle = 'close' } = {}) => (closing ??= closeServer(graceMs, idle)),
  };
  // A test that disposes its gateway and forgets the server: the server answered on, every request a failure.
  gateway.servedBy?.(() => running.close());
  return running;

  function answerThenClose(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('connection', 'close');
    gateway.handleNode(req, res);
  }

  async function closeServer(graceMs: number, idle: IdleConnections): Promise<void> {
    // From now on every answer says `Connection: close`, and node ends its connection once it is sent. The request
    // listener is swapped rather than a flag tested on every request while the server runs.
    server.off('request', gateway.handleNode).on('request', answerThenClose);
    // node:http's close() closes the idle connections first; net's only stops accepting. Not listening any more, the
    // port refuses new connections, which a proxy retries on another instance (deploy/nginx).
    const closed = new Promise<void>((resolve) => {
      if (idle === 'close') server.close(() => resolve());
      else NetServer.prototype.close.call(server, () => resolve());
    });
    // SSE responses end, without `complete`: their clients connect again (docs/edge.md#shutdown-of-streams).
    gateway.endStreams();
    // Subscribers get 1001 "Going away" and reconnect elsewhere; not awaited before the grace timer is set, since
    // a client that never answers the close handshake would hold it (ws waits 30 s).
    const wsClosed = ws.dispose();
    // `close`: a response that ends after close() (a stream, a request in flight) leaves a keep-alive connection open:
    // closed as soon as it is idle, not when the grace runs out. `retire`: each ends after its next answer.
    const idleChecks = idle === 'close' ? setInterval(() => server.closeIdleConnections(), 50) : undefined;
    const timer = setTimeout(() => {
      for (const socket of sockets) socket.destroy();
    }, graceMs);
    timer.unref();
    await Promise.all([closed, wsClosed]);
    clearInterval(idleChecks);
    clearTimeout(timer);
    if (idle === 'retire') stopRequestTimeoutChecks(server);
  }
}

/**
 * node:http's close() also stops its timer checking REQUEST_TIMEOUT_SECONDS; net's close(), which `retire` uses, does
 * not. Once every connection is gone it would only keep the server, and all it holds, from being collected.
 */
function stopRequestTimeoutChecks(server: Server): void {
  const key = Object.getOwnPropertySymbols(server).find((symbol) => symbol.description === 'http.server.connectionsCheckingInterval');
  if (key !== undefined) clearInterval((server as unknown as Record<symbol, NodeJS.Timeout>)[key]);
}
