/**
 * What the two fan-out baselines (bench/fanout-bare-server.ts, bench/fanout-graphql-ws-server.ts) share, so that
 * they send the same ticks by construction: each subscription's hold one hour away at a random point in the second
 * (the spread orders have), an event at once, then one each time its whole seconds left change, from the gateway's
 * own ONE shared ticker (src/orders/hold-ticker.ts: slots of 10 ms, one timer), not a timer per connection; and
 * how each serves: the listening line bench/fanout.ts waits for, and an end on SIGTERM.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocketServer } from 'ws';
import { systemClock } from '../src/kernel/clock.ts';
import { createHoldTicker } from '../src/orders/hold-ticker.ts';

const HOLD_MS = 3_600_000;
const ticker = createHoldTicker(systemClock);

/**
 * One event of a hold: the whole seconds left; the second boundary it is for (epoch ms, the client measures its lag
 * from it); the hold's end in ISO 8601, as the gateway's holdUntil; and whether it is the event sent at once. Plain
 * arguments, no object per tick: the bare server is the floor of the comparison and makes nothing it need not.
 */
export type HoldEventSender = (secondsLeft: number, due: number, holdUntil: string, first: boolean) => void;

/** A new hold: `send` gets its event at once, then every tick. Returns the unwatch. */
export function followHold(send: HoldEventSender): () => void {
  const holdUntilMs = Date.now() + HOLD_MS + Math.floor(Math.random() * 1000);
  const holdUntil = new Date(holdUntilMs).toISOString();
  const dueOf = (secondsLeft: number) => holdUntilMs - (secondsLeft + 1) * 1000;
  const left = Math.floor((holdUntilMs - Date.now()) / 1000);
  send(left, dueOf(left), holdUntil, true);
  return ticker.watch(holdUntilMs, (secondsLeft) => send(secondsLeft, dueOf(secondsLeft), holdUntil, false));
}

/** Listens on a free port of 127.0.0.1, prints the line bench/fanout.ts waits for, and ends on SIGTERM. */
export function serveBaseline(name: string, server: Server, wss: WebSocketServer): void {
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`fan-out ${name} server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.on('SIGTERM', () => {
    ticker.dispose();
    for (const client of wss.clients) client.terminate();
    server.close(() => process.exit(0));
  });
}
