/**
 * The fan-out's second baseline (FANOUT_TARGETS=…,graphql-ws): graphql-ws's own server (`useServer` over `ws`, as the
 * gateway runs it) with no GraphQL in it. Each subscription's stream is the gateway's LatestStream, fed by the same
 * shared ticker as bench/fanout-bare-server.ts, and yields a ready result (the bare server's frame, in graphql-ws's
 * message) that graphql-ws validates, stringifies and sends, awaiting each send as it does for the gateway. So
 * bare → this is what the protocol library costs, and this → gateway is the gateway's own part: the envelop
 * pipeline, the compiled plan, masking and metrics (docs/graphql.md#what-one-subscriber-costs).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { buildSchema, parse } from 'graphql';
import { systemClock } from '../src/kernel/clock.ts';
import { createHoldTicker } from '../src/orders/hold-ticker.ts';
import { LatestStream } from '../src/events/latest-stream.ts';

const HOLD_MS = 3_600_000;
const ticker = createHoldTicker(systemClock);
const schema = buildSchema('type Query { x: Int } type Subscription { holdCountdown: Int }');
const document = parse('subscription { holdCountdown }');
const server = createServer((_req, res) => { res.writeHead(404).end(); });
const wss = new WebSocketServer({ server, path: '/graphql' });
useServer(
  {
    schema,
    onSubscribe: () => ({ schema, document, contextValue: {} }),
    subscribe: () => {
      const holdUntil = Date.now() + HOLD_MS + Math.floor(Math.random() * 1000);
      const holdUntilIso = new Date(holdUntil).toISOString();
      const result = (secondsLeft: number) => ({ data: { holdCountdown: { secondsLeft, holdUntil: holdUntilIso, status: 'AWAITING_PAYMENT', final: false, due: holdUntil - (secondsLeft + 1) * 1000, sentAt: Date.now() } } });
      let unwatch = () => {};
      const stream = new LatestStream<unknown>(() => unwatch());
      stream.push(result(Math.floor((holdUntil - Date.now()) / 1000)), true);
      unwatch = ticker.watch(holdUntil, (s) => stream.push(result(s)));
      return stream as never;
    },
  },
  wss,
  12_000,
);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`fan-out graphql-ws server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => { ticker.dispose(); for (const c of wss.clients) c.terminate(); server.close(() => process.exit(0)); });
