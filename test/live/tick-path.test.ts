/**
 * The tick path (docs/graphql.md#the-tick-path): while graphql-ws waits for a hold's next event, a tick's result is
 * written to the socket at once, past the iterators between the stream and the socket. What a client receives must
 * not change: the same frames as graphql-ws writes, none after a `complete`, the first and final events in order,
 * and a reader that does not read still gets the newest ticks rather than every tick queued for it.
 */
import { parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { schema } from '../../schema/index.ts';
import { subscribeCompiled, WRITE_NEXT_NOW, type WriteNextNow } from '../../graphql-server/use-compiled-subscriptions.ts';
import { LatestStream } from '../../src/events/latest-stream.ts';
import type { Order } from '../../src/orders/order.ts';
import { holdTick } from '../../src/orders/live-service.ts';
import { liveServer } from '../support/live-server.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { heldOrder, holdContext } from '../support/hold-context.ts';
import { eventually } from '../support/receiver.ts';

const held = heldOrder('awaiting payment');
const tick = (secondsLeft: number, order: Order = held) => holdTick(order, secondsLeft, false);

/** subscribeCompiled over a LatestStream the test pushes into, with a writer that takes results while `open`. */
async function compiledOverLatest(writerOpen: () => boolean) {
  const source = new LatestStream<ReturnType<typeof tick>>(() => {});
  const written: ExecutionResult[] = [];
  const writeNow: WriteNextNow = (result) => writerOpen() && written.push(result) > 0;
  const contextValue = holdContext({ holdCountdown: async () => source }, { [WRITE_NEXT_NOW]: writeNow });
  const document = parse('subscription { holdCountdown(orderNumber: "1042", payToken: "t") { left: secondsLeft status } }');
  const stream = (await subscribeCompiled({ schema, document, contextValue } as ExecutionArgs)) as AsyncIterableIterator<ExecutionResult>;
  return { source, stream, written };
}

describe('the tick path, at the compiled stream', () => {
  it('hands a tick to the writer while the reader waits, and first and final events to the reader', async () => {
    let open = true;
    let failing = false;
    const { source, stream, written } = await compiledOverLatest(() => {
      if (failing) throw new Error('the socket broke');
      return open;
    });
    source.push(tick(299), true);
    expect((await stream.next()).value).toEqual({ data: { holdCountdown: { left: 299, status: 'AWAITING_PAYMENT' } } });

    const waiting = stream.next();
    source.push(tick(298));
    source.push(tick(297));
    // Written at once, in the push itself: the same result the reader's way gives.
    expect(written).toEqual([
      { data: { holdCountdown: { left: 298, status: 'AWAITING_PAYMENT' } } },
      { data: { holdCountdown: { left: 297, status: 'AWAITING_PAYMENT' } } },
    ]);
    // A writer that cannot write now (a socket backed up) leaves the tick to the reader.
    open = false;
    source.push(tick(296));
    expect((await waiting).value).toEqual({ data: { holdCountdown: { left: 296, status: 'AWAITING_PAYMENT' } } });
    open = true;

    // One that fails leaves it to the reader too: the push, which the shared ticker makes, does not throw.
    const afterFailure = stream.next();
    failing = true;
    expect(() => source.push(tick(295))).not.toThrow();
    failing = false;
    expect((await afterFailure).value).toEqual({ data: { holdCountdown: { left: 295, status: 'AWAITING_PAYMENT' } } });

    // The final event is kept for the reader even while a writer could take it.
    const final = stream.next();
    source.push(holdTick({ ...held, status: 'received' }, 0, true), true);
    expect((await final).value).toEqual({ data: { holdCountdown: { left: 0, status: 'RECEIVED' } } });
    expect(written).toHaveLength(2);
  });

  it('leaves a result with errors to the reader, through masking, and a tick pushed while a value is queued', async () => {
    const { source, stream, written } = await compiledOverLatest(() => true);
    const waiting = stream.next();
    source.push({ ...tick(5), status: null as never }); // no status: the non-null field fails
    const failed = (await waiting).value!;
    expect(failed.errors).toHaveLength(1);
    expect(written).toEqual([]);

    // Nobody reads now: the ticks queue as before (only the newest is kept), none is written past the queue.
    source.push(tick(4));
    source.push(tick(3));
    expect(written).toEqual([]);
    expect((await stream.next()).value).toEqual({ data: { holdCountdown: { left: 3, status: 'AWAITING_PAYMENT' } } });
    await stream.return!();
    source.push(tick(2));
    expect(written).toEqual([]);
  });
});

/** A graphql-transport-ws socket read frame by frame, each kept as the text it arrived as. */
async function rawSocket(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await eventually(() => frames.includes('{"type":"connection_ack"}'));
  return {
    socket,
    frames,
    send: (message: object) => socket.send(JSON.stringify(message)),
    of: (id: string) => frames.filter((frame) => (JSON.parse(frame) as { id?: string }).id === id),
  };
}

const COUNTDOWN = 'subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft final } }';

describe('the tick path, over a real socket', () => {
  it("writes graphql-ws's own frames, and nothing for an id after its complete, also when the id is used again", async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const raw = await rawSocket(live.wsUrl);
    const variables = { n: created.body.orderNumber, t: created.body.payToken };
    raw.send({ id: 'h', type: 'subscribe', payload: { query: COUNTDOWN, variables } });
    await eventually(() => raw.of('h').length === 1);
    for (let second = 1; second <= 3; second++) {
      await live.clock.advance(1_000);
      await eventually(() => raw.of('h').length === second + 1);
    }
    expect(raw.of('h')).toEqual(
      [300, 299, 298, 297].map((secondsLeft) =>
        JSON.stringify({ id: 'h', type: 'next', payload: { data: { holdCountdown: { secondsLeft, final: false } } } }),
      ),
    );

    raw.send({ id: 'h', type: 'complete' });
    // A ping answered means the server has handled the complete before it.
    raw.send({ type: 'ping' });
    await eventually(() => raw.frames.at(-1) === '{"type":"pong"}');
    await live.clock.advance(2_000);
    raw.send({ type: 'ping' });
    await eventually(() => raw.frames.filter((frame) => frame === '{"type":"pong"}').length === 2);
    expect(raw.of('h')).toHaveLength(4);

    // The same id again: one stream's ticks, one frame a second, not the old stream's beside it.
    raw.send({ id: 'h', type: 'subscribe', payload: { query: COUNTDOWN, variables } });
    await eventually(() => raw.of('h').length === 5);
    await live.clock.advance(1_000);
    await eventually(() => raw.of('h').length === 6);
    raw.send({ type: 'ping' });
    await eventually(() => raw.frames.filter((frame) => frame === '{"type":"pong"}').length === 3);
    expect(raw.of('h').slice(4).map((frame) => JSON.parse(frame).payload.data.holdCountdown.secondsLeft)).toEqual([295, 294]);
    raw.socket.close();
  });

  it('gives a client that stops reading the newest ticks, not every tick queued, then the final event', { timeout: 60_000 }, async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const raw = await rawSocket(live.wsUrl);
    // About 1 KB a tick (19 aliases: the query limits allow 20), on 60 subscriptions: 300 ticks each would be
    // 18 MB, far more than the sockets' buffers hold.
    const wide = Array.from({ length: 19 }, (_, i) => `t${i}: holdUntilText`).join(' ');
    const query = `subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft final ${wide} } }`;
    const ids = Array.from({ length: 60 }, (_, i) => `s${i}`);
    for (const id of ids) raw.send({ id, type: 'subscribe', payload: { query, variables: { n: created.body.orderNumber, t: created.body.payToken } } });
    await eventually(() => ids.every((id) => raw.of(id).length === 1));

    raw.socket.pause();
    await live.clock.advance(300_000); // every second of the hold, then its end
    raw.socket.resume();
    await eventually(() => ids.every((id) => raw.frames.includes(JSON.stringify({ id, type: 'complete' }))), 30_000);

    for (const id of ids) {
      const events = raw.of(id).filter((frame) => JSON.parse(frame).type === 'next').map((frame) => JSON.parse(frame).payload.data.holdCountdown);
      expect(events.at(-1)).toMatchObject({ final: true, secondsLeft: 0 });
      const seconds = events.map((event: { secondsLeft: number }) => event.secondsLeft);
      expect([...seconds].sort((a, b) => b - a)).toEqual(seconds);
    }
    const ticks = ids.reduce((sum, id) => sum + raw.of(id).length, 0);
    // Each subscription had 300 ticks due; the ones its reader was behind on were replaced by newer ones.
    expect(ticks).toBeLessThan(ids.length * 300);
    raw.socket.close();
  });
});
