/**
 * The fan-out baseline: a bare `ws` server sending the same ticks as the gateway's holdCountdown, with nothing
 * of GraphQL in between. It speaks just enough of graphql-transport-ws (connection_init → connection_ack,
 * subscribe → next …) that bench/fanout-client.ts drives it with the very same graphql-ws client it uses on the
 * gateway, so the two figures differ only by the server.
 *
 * Each subscription gets its own hold deadline one hour away at a random point in the second (the spread orders
 * have), an event at once, then one each time its whole seconds left change — from the gateway's own ONE shared
 * ticker (src/orders/hold-ticker.ts: slots of 10 ms, one timer), not a timer per connection. Every event
 * carries `due` (the second boundary it is for) and `sentAt` (when it was sent), both epoch milliseconds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { systemClock } from '../src/kernel/clock.ts';
import { createHoldTicker } from '../src/orders/hold-ticker.ts';

const HOLD_MS = 3_600_000;
const ticker = createHoldTicker(systemClock);
const server = createServer((_req, res) => {
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, path: '/graphql' });

wss.on('connection', (socket: WebSocket) => {
  const unwatches: Array<() => void> = [];
  socket.on('message', (data) => {
    let message: { type?: string; id?: string };
    try {
      message = JSON.parse(String(data)) as { type?: string; id?: string };
    } catch {
      socket.close(4400, 'Invalid message received');
      return;
    }
    if (message.type === 'connection_init') {
      socket.send('{"type":"connection_ack"}');
    } else if (message.type === 'ping') {
      socket.send('{"type":"pong"}');
    } else if (message.type === 'subscribe' && typeof message.id === 'string') {
      const id = JSON.stringify(message.id);
      const holdUntil = Date.now() + HOLD_MS + Math.floor(Math.random() * 1000);
      const holdUntilIso = JSON.stringify(new Date(holdUntil).toISOString());
      const send = (secondsLeft: number, due: number) => {
        socket.send(
          `{"id":${id},"type":"next","payload":{"data":{"holdCountdown":{"secondsLeft":${secondsLeft},` +
            `"holdUntil":${holdUntilIso},"status":"AWAITING_PAYMENT","final":false,"due":${due},"sentAt":${Date.now()}}}}}`,
        );
      };
      const now = Date.now();
      const left = Math.floor((holdUntil - now) / 1000);
      send(left, holdUntil - (left + 1) * 1000);
      unwatches.push(ticker.watch(holdUntil, (secondsLeft) => send(secondsLeft, holdUntil - (secondsLeft + 1) * 1000)));
    }
  });
  socket.on('close', () => {
    for (const unwatch of unwatches) unwatch();
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`fan-out bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  ticker.dispose();
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
