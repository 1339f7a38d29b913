/**
 * What the gateway's Redis clients share for the moments Redis goes away (docs/operations.md#when-redis-goes-away).
 * Redis refused is quick to see: the connection is down. Redis silent (a partition, a stopped host, a full network
 * buffer) is not: the socket stays open, ioredis calls it ready, and a command waits for an answer for as long as
 * the kernel keeps the connection, minutes. So commands a request waits on are bounded, and closing is too: a
 * QUIT nobody answers held SIGTERM's exit for as long as the link stayed silent.
 */
import type { Redis } from 'ioredis';
import { within } from './bounded-wait.ts';

/** A command a request waits on (a rate-limit count, an MCP session) fails past this: Redis answers in a millisecond. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * How long the event bus's SUBSCRIBE and PUBLISH wait for an answer before they are taken as failed (and owed, or
 * announced as lost). They wait through a short reconnection in ioredis's queue, so longer than a request's command.
 */
export const BUS_COMMAND_WAIT_MS = 5_000;

/**
 * `command`'s answer, or a rejection once it has gone BUS_COMMAND_WAIT_MS unanswered. ioredis 5 writes a command
 * Redis takes while loading (SUBSCRIBE, PUBLISH) during a connection's handshake, and when that connection breaks
 * before it is ready, the next one's handshake drops it settled neither way (`resetCommandQueue`): it waited for
 * ever, and whatever followed its failure never ran (test/scale/redis-subscribe-during-break.test.ts,
 * test/live/publish-refused.test.ts). A late answer to one taken as failed is harmless to both callers.
 */
export function answeredWithin<T>(command: Promise<T>, name: string): Promise<T> {
  return within(command, BUS_COMMAND_WAIT_MS, () => {
    throw new Error(`${name} unanswered within ${BUS_COMMAND_WAIT_MS} ms`);
  });
}

/** How long closing waits for Redis to answer QUIT before it closes the socket itself. */
const QUIT_WAIT_MS = 1_000;

/** QUIT each client (its replies flushed), or past QUIT_WAIT_MS close its socket: shutdown never waits on Redis. */
export async function closeRedis(...clients: Redis[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      await within(client.quit().catch(() => undefined), QUIT_WAIT_MS, () => undefined);
      client.disconnect();
    }),
  );
}

/**
 * A readiness check's PING of `client`: rejects with what an operator reads in `/ready`. A connection ioredis calls
 * ready whose PING gets no answer is Redis silent (frozen, a partition); "redis ready" was said for it.
 */
export async function pingForReadiness(client: Redis): Promise<void> {
  await client.ping().catch(() => {
    throw new Error(client.status === 'ready' ? 'redis did not answer PING (connected, silent)' : `redis ${client.status}`);
  });
}

/**
 * Whether Redis is reachable now, as a process's connections to it see it: up while every one of them is ready.
 * ioredis retries a lost connection every few hundred milliseconds, each try a `close` and an `error`; what an
 * operator needs is the two moments that matter, lost and back, so listeners hear changes of state only
 * (docs/operations.md#when-redis-goes-away). A Redis that stays silent with the socket open is seen here only once
 * the socket closes.
 */
export interface RedisLink {
  readonly up: boolean;
  /**
   * Why the last connection failed, in words that hold no secret: Redis's error code (`WRONGPASS`, `NOAUTH`) or the
   * socket's (`ECONNREFUSED`); undefined while none has. A wrong password looked like any outage before.
   */
  readonly failure: string | undefined;
  /** Calls `listener` each time the link goes down (after having been up) or comes back; returns the unsubscribe. */
  onChange(listener: (up: boolean) => void): () => void;
  /** Stops listening: closing the connections on purpose (shutdown) is no loss. */
  stop(): void;
}

export function watchRedisLink(...clients: Redis[]): RedisLink {
  const listeners = new Set<(up: boolean) => void>();
  let up = false;
  let stopped = false;
  let failure: string | undefined;
  const recheck = () => {
    const now = clients.every((client) => client.status === 'ready');
    // A cause is of the outage it came in: one from a start before Redis was up does not explain a later one.
    if (now) failure = undefined;
    if (stopped || now === up) return;
    up = now;
    for (const listener of [...listeners]) listener(up);
  };
  const failed = (error: unknown) => void (failure = failureOf(error) ?? failure);
  for (const client of clients) for (const event of ['ready', 'close', 'end'] as const) client.on(event, recheck);
  for (const client of clients) client.on('error', failed);
  return {
    get up() {
      return up;
    },
    get failure() {
      return failure;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    stop() {
      stopped = true;
      listeners.clear();
      for (const client of clients) for (const event of ['ready', 'close', 'end'] as const) client.off(event, recheck);
      for (const client of clients) client.off('error', failed);
    },
  };
}

/**
 * A connection error's code: a socket's (`ECONNREFUSED`), or the first word of Redis's reply when it is one of
 * Redis's upper-case codes (`WRONGPASS invalid username-password pair…`). Never the message itself, which may hold
 * a host; undefined for anything else.
 */
function failureOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z_]{3,32}$/u.test(code)) return code;
  const word = error instanceof Error ? /^([A-Z]{3,32})\b/u.exec(error.message)?.[1] : undefined;
  return word;
}
