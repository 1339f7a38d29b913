/**
 * The stream of graphql-sse's single connection mode (graphql-server/single-connection-mode.ts) and a client that
 * stops reading it: events are pushed to the stream from the event bus, so without a bound every event of its
 * operations piled up in memory for as long as the client stayed connected. Past STREAM_BACKLOG_BYTES unread the
 * stream ends, what waited is let go, and the operations it carried stop; a client that reads keeps its stream
 * however much passes.
 * A real yoga with the mode's plugin, a subscription that writes 16 KB every millisecond, and a real event bus; then
 * the whole gateway on a real port, with a client that stops reading its socket while 40 MB of events come.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/events/event-bus.ts';
import { SingleConnectionMode, STREAM_BACKLOG_BYTES, streamKey } from '../../graphql-server/single-connection-mode.ts';
import { StreamShutdown } from '../../graphql-server/stream-shutdown.ts';
import { endlessSubscriptionYoga } from '../support/endless-subscription.ts';
import { liveServer } from '../support/live-server.ts';

const CHUNK = 'x'.repeat(16 * 1024);

function gateway() {
  const streams = new StreamShutdown();
  const mode = new SingleConnectionMode({ bus: createEventBus().bus, secret: 'test-secret', streams, maxBodyBytes: 100_000 });
  const { yoga, state } = endlessSubscriptionYoga({ field: 'chunks', type: 'String', value: () => CHUNK, everyMs: 1, plugins: [mode.plugin, streams.plugin] });
  mode.attach(yoga);
  const call = (method: string, headers: Record<string, string> = {}, body?: string, signal?: AbortSignal) =>
    Promise.resolve(yoga.fetch(new Request('http://gateway.test/graphql', { method, headers, body, signal }), { clientAddress: '127.0.0.1' }));
  return { state, mode, call };
}

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A reserved stream, opened, and one `chunks` subscription on it. */
async function streamWithChunks(call: ReturnType<typeof gateway>['call']) {
  const token = await (await call('PUT')).text();
  const stream = await call('GET', { 'x-graphql-event-stream-token': token, accept: 'text/event-stream' });
  expect(stream.status).toBe(200);
  const body = JSON.stringify({ query: 'subscription { chunks }', extensions: { operationId: 'chunks' } });
  const posted = await call('POST', { 'x-graphql-event-stream-token': token, 'content-type': 'application/json' }, body);
  expect(posted.status).toBe(202);
  return stream.body!.getReader();
}

describe("single connection mode: a stream's unread backlog", () => {
  it('ends a stream whose client stopped reading, past STREAM_BACKLOG_BYTES, and stops its operations', async () => {
    const { state, mode, call } = gateway();
    const reader = await streamWithChunks(call);
    await until(() => state.running === 1, 'the subscription to run');
    // Nothing is read: the backlog grows by 16 KB a millisecond until the bound ends the stream.
    await until(() => state.running === 0, 'the operation to stop with its stream');
    // The stream has ended, and what waited for the client was let go, not kept for it.
    let unread = 0;
    for (let step = await reader.read(); !step.done; step = await reader.read()) unread += step.value.byteLength;
    expect(unread).toBeLessThan(STREAM_BACKLOG_BYTES);
    mode.dispose();
  });

  it('keeps the stream of a client that reads, however much passes', async () => {
    const { state, mode, call } = gateway();
    const reader = await streamWithChunks(call);
    let read = 0;
    while (read < 4 * STREAM_BACKLOG_BYTES) {
      const step = await reader.read();
      expect(step.done).toBe(false);
      read += step.value!.byteLength;
    }
    expect(state.running).toBe(1);
    await reader.cancel();
    await until(() => state.running === 0, 'the operation to stop once the stream was cancelled');
    mode.dispose();
  });

  it('ends a stream whose client left while it was being opened, so its token opens again', async () => {
    const { mode, call } = gateway();
    const token = await (await call('PUT')).text();
    const headers = { 'x-graphql-event-stream-token': token, accept: 'text/event-stream' };
    // The client's connection closes while the stream waits for the bus (before its answer is sent).
    const leaving = new AbortController();
    const first = call('GET', headers, undefined, leaving.signal);
    leaving.abort();
    await first.then((response) => response.body?.cancel(), () => undefined);
    // Nothing holds the token open: the client's next try gets its stream, not 409 "Stream already open".
    const again = await call('GET', headers);
    expect(again.status).toBe(200);
    await again.body!.cancel();
    mode.dispose();
  });

  it('ends the stream of a socket that stopped reading, on a real port, instead of keeping every event for it', { timeout: 60_000 }, async () => {
    const live = await liveServer();
    const token = await (await fetch(`${live.server.url}/graphql`, { method: 'PUT' })).text();
    const socket = connect(live.server.port, '127.0.0.1');
    const received: Buffer[] = [];
    const ended = new Promise<void>((resolve) => socket.on('end', resolve).on('close', resolve));
    const opened = new Promise<void>((resolve) => socket.once('data', (chunk: Buffer) => (received.push(chunk), resolve())));
    socket.write(`GET /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\nx-graphql-event-stream-token: ${token}\r\naccept: text/event-stream\r\nconnection: close\r\n\r\n`);
    await opened; // the answer's head and the first comment: the stream listens
    socket.pause(); // and the client reads no more
    // 40 MB of events for the stream, as an operation's instance relays them, a little at a time.
    const event = `event: next\ndata: {"id":"op","payload":{"data":{"x":"${'y'.repeat(64 * 1024)}"}}}\n\n`;
    for (let i = 0; i < 640; i++) {
      live.gateway.bus.publish('graphqlSseStream', streamKey(token), { kind: 'event', text: event });
      if (i % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // The client reads again: it gets what was on its way, then the stream's end, not 40 MB.
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.resume();
    const done = await Promise.race([ended.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 30_000, 'still open'))]);
    const text = Buffer.concat(received).toString('latin1');
    socket.destroy();
    expect(done).toBe('ended');
    expect(text.endsWith('0\r\n\r\n')).toBe(true); // the chunked answer's own end: not a cut connection
    expect(text.length).toBeLessThan(24 * 1024 * 1024);
  });
});
