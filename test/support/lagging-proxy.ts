/**
 * A TCP proxy on 127.0.0.1 that holds every byte a client sends for `lagMs` before passing it on, and passes the
 * answers back at once: a slow link to Redis (or any server) for one instance only. What it shows is ordering, not
 * speed: a command sent through it reaches the server `lagMs` after another client's command sent at the same time.
 */
import { connect, createServer, type Socket } from 'node:net';
import { afterThisTest } from './gateway.ts';

export interface LaggingProxy {
  /** `target` with its host and port replaced by the proxy's (`redis://127.0.0.1:6379/0` → `redis://127.0.0.1:PORT/0`). */
  url: string;
}

/** Starts a proxy to `target` (a URL with a host and port), closed after the test. */
export async function laggingProxy(target: string, lagMs: number): Promise<LaggingProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(server);
    // Timers of one delay fire in the order they were set: the bytes keep their order.
    client.on('data', (chunk) => setTimeout(() => server.writable && server.write(chunk), lagMs));
    server.on('data', (chunk) => client.writable && client.write(chunk));
    const close = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    for (const socket of [client, server]) socket.on('close', close).on('error', close);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  afterThisTest(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((closed) => server.close(closed));
  });
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return { url: proxied.toString() };
}
