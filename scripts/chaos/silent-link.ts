/**
 * The "silence" fault of the chaos run: a TCP proxy between the instances and PostgreSQL whose strike makes some of
 * the connections open at that moment go silent, as a network path that starts to drop packets does. Nothing more
 * passes on them either way, and neither end hears of the other's close: the gateway must give each up after its
 * `query_timeout`, and PostgreSQL must end the session of a transaction left open on one (docs/operations.md). New
 * connections pass as before. A silent connection's sockets are destroyed after HOLD_MS, long after both ends gave up.
 */
import { connect, createServer, type Socket } from 'node:net';

/** How long a silenced connection is kept open at the proxy before it is thrown away. */
const HOLD_MS = 60_000;

interface Pair {
  client: Socket;
  server: Socket;
  silent: boolean;
}

export interface SilentLink {
  /** `target` (a postgres:// URL) through the proxy. */
  url: string;
  /** Silences each open connection with probability `share`; returns how many it silenced. */
  silence(share: number): number;
  close(): Promise<void>;
}

export async function startSilentLink(target: string): Promise<SilentLink> {
  const upstream = new URL(target);
  const pairs = new Set<Pair>();
  const proxy = createServer((client) => {
    const pair: Pair = { client, server: connect(Number(upstream.port || 5432), upstream.hostname), silent: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => !pair.silent && pair.server.write(chunk));
    pair.server.on('data', (chunk: Buffer) => !pair.silent && client.write(chunk));
    const end = () => {
      if (pair.silent) return; // a blackhole passes no close either
      client.destroy();
      pair.server.destroy();
      pairs.delete(pair);
    };
    for (const socket of [client, pair.server]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((proxy.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    silence(share) {
      let silenced = 0;
      for (const pair of pairs) {
        if (pair.silent || Math.random() >= share) continue;
        pair.silent = true;
        silenced += 1;
        setTimeout(() => {
          pair.client.destroy();
          pair.server.destroy();
          pairs.delete(pair);
        }, HOLD_MS).unref();
      }
      return silenced;
    },
    async close() {
      for (const pair of pairs) [pair.client, pair.server].forEach((socket) => socket.destroy());
      await new Promise((closed) => proxy.close(closed));
    },
  };
}
