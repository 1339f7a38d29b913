/**
 * The operations of graphql-sse's single connection mode (graphql-server/single-connection-operations.ts) where
 * timing decides, which the end-to-end tests (sse-single-connection*.test.ts) cannot arrange: a real yoga with a
 * subscription that never ends on its own, a real event bus (in memory), and the stream's messages read from it.
 *
 * - An orphaned stream: its holder vanished without a word (killed), so its `alive` pings stop. The operations it
 *   left running here end after two and a half ping intervals, and not while the pings go on.
 * - More operations than MAX_OPERATIONS_PER_CONNECTION at once on one stream: the one past it is refused alone.
 * - A DELETE (`stop`) or the stream's close that arrives while yoga is still answering the operation's POST: the
 *   operation never runs on (no event relayed) and its `complete` is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/events/event-bus.ts';
import type { Topics } from '../../src/events/topics.ts';
import { MAX_OPERATIONS_PER_CONNECTION } from '../../graphql-server/operation-bounds.ts';
import { SingleConnectionOperations, type FetchHandler } from '../../graphql-server/single-connection-operations.ts';
import { StreamShutdown } from '../../graphql-server/stream-shutdown.ts';
import { endlessSubscriptionYoga } from '../support/endless-subscription.ts';

type StreamMessage = Topics['graphqlSseStream'][1];

/**
 * The holder's ping interval here: the orphan bound is 2.5 of it (250 ms), and the holder below pings every quarter
 * of it, so only an event loop stalled for more than 225 ms ends an operation whose holder still pings. At 40 ms, and
 * with the first ping only after the first tick, a loaded CI host ended one (a clean-clone CI run, 2026-12-05).
 */
const PING_MS = 100;
const KEY = 'stream-key';
const TICKS = 'subscription { ticks }';
const FETCH_API = { Response, Request, Headers, ReadableStream };

/** A real yoga whose `ticks` subscription yields every 10 ms until it is ended; `running` counts those not ended. */
const tickingYoga = (shutdown: StreamShutdown) => endlessSubscriptionYoga({ field: 'ticks', type: 'Int', value: (n) => n, everyMs: 10, plugins: [shutdown.plugin] });

async function until(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

function setUp(handler?: (yoga: FetchHandler) => FetchHandler) {
  const bus: EventBus = createEventBus().bus;
  const shutdown = new StreamShutdown();
  const { yoga, state } = tickingYoga(shutdown);
  const operations = new SingleConnectionOperations(bus, shutdown, 100_000, PING_MS);
  operations.attach(handler ? handler(yoga) : yoga);
  const messages: StreamMessage[] = [];
  // The instance holding the stream pings from the start, as a live holder does, until it vanishes.
  const pinging = setInterval(() => bus.publish('graphqlSseStream', KEY, { kind: 'alive' }), PING_MS / 4);
  const holderVanishes = () => clearInterval(pinging);
  cleanup.push(holderVanishes, bus.listen('graphqlSseStream', KEY, (message) => messages.push(message)), () => operations.dispose());
  const post = (operationId: string) =>
    operations.start(
      new Request('http://gateway.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: TICKS, extensions: { operationId } }) }),
      KEY,
      { clientAddress: '127.0.0.1' },
      FETCH_API,
    );
  const events = (kind: 'next' | 'complete', id: string) =>
    messages.filter((m) => m.kind === 'event' && m.text.startsWith(`event: ${kind}\ndata: {"id":${JSON.stringify(id)}`)).length;
  return { bus, state, post, events, holderVanishes };
}

describe('single connection mode: operations whose stream or stop comes at the wrong time', () => {
  it("ends the operations of a stream whose holder stopped pinging, and not while it pings", async () => {
    const { state, post, events, holderVanishes } = setUp();
    const answered = await post('op-1');
    expect(answered.status).toBe(202);
    await until(() => events('next', 'op-1') > 0, 'the first tick');
    // The holder pings: the operation runs on well past the orphan bound (2.5 intervals).
    await pause(PING_MS * 5);
    expect(events('complete', 'op-1')).toBe(0);
    expect(state.running).toBe(1);
    // The holder vanished without a word: its pings stop, and the operation ends here too.
    holderVanishes();
    await until(() => events('complete', 'op-1') === 1, "the orphaned operation's complete");
    await until(() => state.running === 0, "yoga's subscription to end");
  });

  const arrivals: Array<[string, StreamMessage]> = [
    ['a DELETE (stop)', { kind: 'stop', operationId: 'op-1' }],
    ["the stream's close", { kind: 'closed' }],
  ];
  it.each(arrivals)('never runs an operation when %s came while yoga was answering its POST', async (_, message) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    const { bus, state, post, events } = setUp((yoga) => ({
      fetch: async (request, context) => {
        asked = true;
        await gate;
        return yoga.fetch(request, context);
      },
    }));
    const answer = post('op-1');
    await until(() => asked, 'yoga to be asked');
    bus.publish('graphqlSseStream', KEY, message);
    release();
    expect((await answer).status).toBe(202);
    await until(() => events('complete', 'op-1') === 1, "the operation's complete");
    await until(() => state.running === 0, "yoga's subscription to end");
    await pause(50); // ticks come every 10 ms: a subscription left running would have relayed some by now
    expect(events('next', 'op-1')).toBe(0);
  });

  it(`refuses an operation past ${MAX_OPERATIONS_PER_CONNECTION} at once on one stream, and takes one again once another ended`, async () => {
    const { bus, state, post, events } = setUp();
    for (let n = 1; n <= MAX_OPERATIONS_PER_CONNECTION; n++) expect((await post(`op-${n}`)).status).toBe(202);
    const refused = await post('one-more');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toContain(`at most ${MAX_OPERATIONS_PER_CONNECTION}`);
    expect(state.running).toBe(MAX_OPERATIONS_PER_CONNECTION);
    bus.publish('graphqlSseStream', KEY, { kind: 'stop', operationId: 'op-1' });
    await until(() => events('complete', 'op-1') === 1, "the stopped operation's complete");
    expect((await post('one-more')).status).toBe(202);
    await until(() => events('next', 'one-more') > 0, "the new operation's first tick");
  });
});
