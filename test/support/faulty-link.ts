/**
 * A TCP proxy on 127.0.0.1 standing for one instance's link to Redis or PostgreSQL (or any server), with four faults
 * to give it: `lagMs` holds every byte the client sends that long before passing it on (answers come back at once),
 * `cut()` breaks every connection and refuses new ones until `restore()`, as a Redis restart or a dropped network
 * does, `stall()` breaks every connection and then accepts new ones and never answers on them, as a failover to a
 * hung server or a dead backend behind a load balancer does, and `freeze()` keeps every connection open and lets
 * nothing more through either way, not even a close, as a network that starts to drop packets silently does (a
 * blackhole: neither end hears of it).
 * What the lag shows is ordering, not speed: a command sent through it reaches the server `lagMs` after another
 * client's command sent at the same time.
 */
import { connect, createServer, type Socket } from 'node:net';
import { afterThisTest } from './gateway.ts';

export interface FaultyLink {
  /** `target` with its host and port replaced by the proxy's (`redis://127.0.0.1:6379/0` → `redis://127.0.0.1:PORT/0`). */
  url: string;
  /**
   * Breaks every connection now, and each new one at once, until `restore()`. With `which`, only the connections
   * whose client has sent a chunk matching it are broken now (Redis's publishing connection, say, and not the
   * subscribing one).
   */
  cut(which?: RegExp): void;
  /**
   * Breaks every connection now (but, with `keep`, those whose client has sent a chunk matching it); until
   * `restore()`, a new one is accepted and never answered (a failover to nothing).
   */
  stall(keep?: RegExp): void;
  /** What each connection accepted and never answered (stalled or frozen on arrival) has sent so far. */
  unanswered(): string[];
  /**
   * What clients have sent that went nowhere since the link last froze or stalled (on an open connection or a new
   * one), up to SENT_KEPT characters: a test waits for its request's bytes here to know it has reached the link.
   */
  held(): string;
  /**
   * From now on (or, with `after`, from the first chunk a client sends that matches it, which still reaches the
   * server) nothing passes either way on any connection, open or new, and a close on one side is not passed on.
   */
  freeze(after?: RegExp): void;
  /**
   * Holds the first chunk a client sends from now on that matches `at`, and everything its connection sends after it
   * (kept in `held()`), until `resume()` passes them on in order; other connections go on. A test pauses one query
   * this way to commit a write before it reaches the server.
   */
  pause(at: RegExp): void;
  /** Passes on what `pause` held, in the order it was sent, and lets that connection's bytes through again. */
  resume(): void;
  /**
   * Lets new connections through again; frozen ones are ended at both sides (both gave up on them by then), and so
   * are the ones accepted and never answered.
   */
  restore(): void;
}

const SENT_KEPT = 64 * 1024;

/** Starts a proxy to `target` (a URL with a host and port), closed after the test. */
export async function faultyLink(target: string, { lagMs = 0 }: { lagMs?: number } = {}): Promise<FaultyLink> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  /** What each connection's client has sent, up to SENT_KEPT characters, for `cut(which)`. */
  const sent = new Map<Socket, string>();
  /** The client's side of each connection passed on (the others in `sockets` are the upstream sides). */
  const clients = new WeakSet<Socket>();
  /** The connections accepted and never answered, with what each has sent. */
  const hung = new Map<Socket, string>();
  let broken = false;
  let stalled = false;
  let frozen = false;
  let freezeAfter: RegExp | null = null;
  let heldText = '';
  let pauseAt: RegExp | null = null;
  /** The paused connection's upstream side and the chunks its client sent since the pause. */
  let paused: { server: Socket; chunks: Buffer[] } | null = null;
  const hold = (chunk: Buffer) => void (heldText.length < SENT_KEPT && (heldText += chunk.toString('latin1')));
  const server = createServer((client) => {
    if (broken) return void client.destroy();
    if (stalled || frozen) {
      // Read, kept for `unanswered()`, and never answered.
      hung.set(client, '');
      const keep = (chunk: Buffer) => {
        hold(chunk);
        if (hung.has(client)) hung.set(client, (hung.get(client)! + chunk.toString('latin1')).slice(0, SENT_KEPT));
      };
      return void sockets.add(client.on('error', () => {}).on('data', keep));
    }
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(server);
    clients.add(client);
    // Timers of one delay fire in the order they were set: the bytes keep their order.
    const forward = (chunk: Buffer) => {
      if (paused?.server === server || pauseAt?.test(chunk.toString('latin1'))) {
        if (paused?.server !== server) [paused, pauseAt] = [{ server, chunks: [] }, null];
        paused.chunks.push(chunk);
        return hold(chunk);
      }
      return frozen ? hold(chunk) : server.writable && server.write(chunk);
    };
    const fromClient = (chunk: Buffer) => {
      forward(chunk);
      const before = sent.get(client) ?? '';
      if (before.length < SENT_KEPT) sent.set(client, before + chunk.toString('latin1'));
      if (freezeAfter?.test(chunk.toString('latin1'))) [frozen, freezeAfter] = [true, null];
    };
    client.on('data', lagMs > 0 ? (chunk: Buffer) => setTimeout(() => fromClient(chunk), lagMs) : fromClient);
    server.on('data', (chunk) => !frozen && client.writable && client.write(chunk));
    const close = () => {
      if (frozen) return; // neither end hears of the other's close
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
      sent.delete(client);
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
    cut(which) {
      broken = true;
      for (const socket of sockets) if (!which || which.test(sent.get(socket) ?? '')) socket.destroy();
    },
    stall(keep) {
      [stalled, heldText] = [true, ''];
      // A server socket goes with its client's (a client that has sent nothing is not kept).
      for (const socket of sockets) if (!keep || (clients.has(socket) && !keep.test(sent.get(socket) ?? ''))) socket.destroy();
    },
    unanswered: () => [...hung.values()],
    held: () => heldText,
    freeze(after) {
      heldText = '';
      if (after) freezeAfter = after;
      else frozen = true;
    },
    pause(at) {
      [pauseAt, heldText] = [at, ''];
    },
    resume() {
      const held = paused;
      [paused, pauseAt] = [null, null];
      for (const chunk of held?.chunks ?? []) if (held!.server.writable) held!.server.write(chunk);
    },
    restore() {
      if (frozen) for (const socket of sockets) socket.destroy();
      for (const socket of hung.keys()) socket.destroy();
      hung.clear();
      broken = false;
      stalled = false;
      frozen = false;
      freezeAfter = null;
    },
  };
}
