/**
 * The fan-out baseline: a bare `ws` server sending the same ticks as the gateway's holdCountdown, with nothing
 * of GraphQL in between. It speaks just enough of graphql-transport-ws (connection_init → connection_ack,
 * subscribe → next …) that bench/fanout-client.ts drives it with the very same graphql-ws client it uses on the
 * gateway, so the two figures differ only by the server.
 *
 * Each subscription's hold and ticks come from bench/fanout-baseline-hold.ts, as graphql-ws's baseline's do. Every
 * event carries `due` (the second boundary it is for) and `sentAt` (when it was sent), both epoch milliseconds.
 */
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { followHold, serveBaseline } from './fanout-baseline-hold.ts';

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
      unwatches.push(
        followHold((secondsLeft, due, holdUntil) => {
          socket.send(
            `{"id":${id},"type":"next","payload":{"data":{"holdCountdown":{"secondsLeft":${secondsLeft},` +
              `"holdUntil":"${holdUntil}","status":"AWAITING_PAYMENT","final":false,"due":${due},"sentAt":${Date.now()}}}}}`,
          );
        }),
      );
    }
  });
  socket.on('close', () => {
    for (const unwatch of unwatches) unwatch();
  });
});

serveBaseline('bare', server, wss);
