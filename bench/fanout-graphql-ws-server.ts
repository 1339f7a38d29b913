/**
 * The fan-out's second baseline (FANOUT_TARGETS=…,graphql-ws): graphql-ws's own server (`useServer` over `ws`, as the
 * gateway runs it) with no GraphQL in it. Each subscription's stream is the gateway's LatestStream, fed by the same
 * shared ticker as bench/fanout-bare-server.ts, and yields a ready result (the bare server's frame, in graphql-ws's
 * message) that graphql-ws validates, stringifies and sends, awaiting each send as it does for the gateway. So
 * bare → this is what the protocol library costs, and this → gateway is the gateway's own part: the envelop
 * pipeline, the compiled plan, masking and metrics (docs/graphql.md#what-one-subscriber-costs).
 */
import { createServer } from 'node:http';
import { buildSchema, parse } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { LatestStream } from '../src/events/latest-stream.ts';
import { followHold, serveBaseline } from './fanout-baseline-hold.ts';

const schema = buildSchema('type Query { x: Int } type Subscription { holdCountdown: Int }');
const document = parse('subscription { holdCountdown }');
const server = createServer((_req, res) => {
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, path: '/graphql' });
useServer(
  {
    schema,
    onSubscribe: () => ({ schema, document, contextValue: {} }),
    subscribe: () => {
      let unwatch = () => {};
      const stream = new LatestStream<unknown>(() => unwatch());
      unwatch = followHold((secondsLeft, due, holdUntil, first) => {
        const holdCountdown = { secondsLeft, holdUntil, status: 'AWAITING_PAYMENT', final: false, due, sentAt: Date.now() };
        stream.push({ data: { holdCountdown } }, first);
      });
      return stream as never;
    },
  },
  wss,
  12_000,
);
serveBaseline('graphql-ws', server, wss);
