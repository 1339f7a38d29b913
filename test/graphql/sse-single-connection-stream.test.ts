/**
 * The stream of graphql-sse's single connection mode (graphql-server/single-connection-mode.ts) and a client that
 * stops reading it: events are pushed to the stream from the event bus, so without a bound every event of its
 * operations piled up in memory for as long as the client stayed connected. Past STREAM_BACKLOG_BYTES unread the
 * stream ends, what waited is let go, and the operations it carried stop; a client that reads keeps its stream
 * however much passes.
 * A real yoga with the mode's plugin, a subscription that writes 16 KB every millisecond, and a real event bus.
 */
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/events/event-bus.ts';
import { SingleConnectionMode, STREAM_BACKLOG_BYTES } from '../../graphql-server/single-connection-mode.ts';
import { StreamShutdown } from '../../graphql-server/stream-shutdown.ts';

const CHUNK = 'x'.repeat(16 * 1024);

function gateway() {
  const state = { running: 0 };
  const streams = new StreamShutdown();
  const mode = new SingleConnectionMode({ bus: createEventBus().bus, secret: 'test-secret', streams, maxBodyBytes: 100_000 });
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { hello: String } type Subscription { chunks: String }',
      resolvers: {
        Subscription: {
          chunks: {
            subscribe: async function* () {
              state.running += 1;
              try {
                for (;;) {
                  yield { chunks: CHUNK };
                  await new Promise((resolve) => setTimeout(resolve, 1));
                }
              } finally {
                state.running -= 1;
              }
            },
          },
        },
      },
    }),
    plugins: [mode.plugin, streams.plugin],
    logging: false,
  });
  mode.attach(yoga);
  const call = (method: string, headers: Record<string, string> = {}, body?: string) =>
    Promise.resolve(yoga.fetch(new Request('http://gateway.test/graphql', { method, headers, body }), { clientAddress: '127.0.0.1' }));
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
});
