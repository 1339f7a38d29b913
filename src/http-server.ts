/**
 * A gateway on a node:http server (src/server.ts makes the gateway): the listening socket, graphql-ws on it, the
 * bounds on slow senders, and the shutdown that ends streams and closes sockets in order.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
   * lets requests in flight finish, closes each connection as it goes idle, and destroys what is left after
   * `graceMs` (default 2 s, so that the process exits within 3 s whatever clients are open:
   * docs/edge.md#shutdown-of-streams). Once: a second call waits for the first. The gateway's dispose() calls it.
   */
  close(graceMs?: number): Promise<void>;
}

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
    close: (graceMs = 2_000) => (closing ??= closeServer(graceMs)),
  };
  // A test that disposes its gateway and forgets the server: the server answered on, every request a failure.
  gateway.servedBy?.(() => running.close());
  return running;

  async function closeServer(graceMs: number): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // SSE responses end, without `complete`: their clients connect again (docs/edge.md#shutdown-of-streams).
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
  }
}
