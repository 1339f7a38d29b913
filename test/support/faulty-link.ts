/**
 * A TCP proxy on 127.0.0.1 standing for one instance's link to Redis (or any server), with three faults to give it:
 * `lagMs` holds every byte the client sends that long before passing it on (answers come back at once), `cut()`
 * breaks every connection and refuses new ones until `restore()`, as a Redis restart or a dropped network does, and
 * `stall()` breaks every connection and then accepts new ones and never answers on them, as a failover to a hung
 * server or a dead backend behind a load balancer does.
 * What the lag shows is ordering, not speed: a command sent through it reaches the server `lagMs` after another
 * client's command sent at the same time.
 */
import { connect, createServer, type Socket } from 'node:net';
import { afterThisTest } from './gateway.ts';

export interface FaultyLink {
  /** `target` with its host and port replaced by the proxy's (`redis://127.0.0.1:6379/0` → `redis://127.0.0.1:PORT/0`). */
  url: string;
  /** Breaks every connection now, and each new one at once, until `restore()`. */
  cut(): void;
  /** Breaks every connection now; until `restore()`, a new one is accepted and never answered (a failover to nothing). */
  stall(): void;
  restore(): void;
}

/** Starts a proxy to `target` (a URL with a host and port), closed after the test. */
export async function faultyLink(target: string, { lagMs = 0 }: { lagMs?: number } = {}): Promise<FaultyLink> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let broken = false;
  let stalled = false;
  const server = createServer((client) => {
    if (broken) return void client.destroy();
    if (stalled) return void sockets.add(client.on('error', () => {}).resume()); // read and dropped, never answered
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(server);
    // Timers of one delay fire in the order they were set: the bytes keep their order.
    const forward = (chunk: Buffer) => server.writable && server.write(chunk);
    client.on('data', lagMs > 0 ? (chunk: Buffer) => setTimeout(() => forward(chunk), lagMs) : forward);
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
  return {
    url: proxied.toString(),
    cut() {
      broken = true;
      for (const socket of sockets) socket.destroy();
    },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      broken = false;
      stalled = false;
    },
  };
}
