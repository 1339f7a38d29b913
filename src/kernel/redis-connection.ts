/**
 * What the gateway's Redis clients share for the moments Redis goes away (docs/operations.md#when-redis-goes-away).
 * Redis refused is quick to see: the connection is down. Redis silent (a partition, a stopped host, a full network
 * buffer) is not: the socket stays open, ioredis calls it ready, and a command waits for an answer for as long as
 * the kernel keeps the connection, minutes. So commands a request waits on are bounded, and closing is too: a
 * QUIT nobody answers held SIGTERM's exit for as long as the link stayed silent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** A command a request waits on (a rate-limit count, an MCP session) fails past this: Redis answers in a millisecond. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** How long closing waits for Redis to answer QUIT before it closes the socket itself. */
const QUIT_WAIT_MS = 1_000;

/** QUIT each client (its replies flushed), or past QUIT_WAIT_MS close its socket: shutdown never waits on Redis. */
export async function closeRedis(...clients: Redis[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      await Promise.race([client.quit().catch(() => undefined), sleep(QUIT_WAIT_MS, undefined, { ref: false })]);
      client.disconnect();
    }),
  );
}
