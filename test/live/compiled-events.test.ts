/**
 * Subscription events run on graphql-jit's compiled plan (graphql-server/use-compiled-subscriptions.ts): every event
 * of every live field must come out exactly as graphql-js's own `subscribe` makes it — aliases, fragments,
 * __typename, variables, enums and scalars, a refusal before the stream — and a document of several operations
 * still runs the one its operationName names.
 */
import { parse, subscribe, type ExecutionArgs } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';
import type { GraphQLContext } from '../../schema/context.ts';
import { subscribeCompiled } from '../../graphql-server/use-compiled-subscriptions.ts';
import { DomainError } from '../../src/kernel/errors.ts';
import { holdTick, type HoldTickEvent } from '../../src/orders/live-service.ts';
import { liveServer, subscribe as subscribeOverWs } from '../support/live-server.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { heldOrder, holdContext } from '../support/hold-context.ts';

/** A context whose live service streams the given hold ticks, or refuses as a wrong payToken does. */
function contextWith(events: HoldTickEvent[], refuse = false): GraphQLContext {
  return holdContext({
    async holdCountdown() {
      if (refuse) throw new DomainError('not_found', 'No order with that number and token.');
      return (async function* () {
        yield* events;
      })();
    },
  });
}

async function frames(run: (args: ExecutionArgs) => unknown, args: ExecutionArgs): Promise<unknown[]> {
  const result = (await run(args)) as AsyncIterable<unknown> | object;
  if (!(Symbol.asyncIterator in result)) return [result];
  const all: unknown[] = [];
  for await (const frame of result) all.push(frame);
  return all;
}

const TICKS = [
  holdTick(heldOrder('awaiting payment'), 299, false),
  holdTick(heldOrder('awaiting payment'), 298, false),
  holdTick(heldOrder('received'), 0, true),
];

describe('subscription events on the compiled plan', () => {
  it('gives every frame graphql-js gives: aliases, fragments, __typename, variables, enums, scalars', async () => {
    const document = parse(`
      subscription Hold($n: ID!, $t: String!) {
        tick: holdCountdown(orderNumber: $n, payToken: $t) { __typename left: secondsLeft ...Deadline status final orderNumber }
      }
      fragment Deadline on HoldTick { holdUntil holdUntilText }`);
    const args = () => ({ schema, document, contextValue: contextWith(TICKS), variableValues: { n: '1042', t: 'token' } });
    const compiled = await frames(subscribeCompiled, args());
    expect(compiled).toEqual(await frames(subscribe as never, args()));
    expect(compiled).toHaveLength(3);
    expect(compiled[2]).toMatchObject({ data: { tick: { __typename: 'HoldTick', left: 0, status: 'RECEIVED', final: true } } });
  });

  it('answers a refused subscription with the same errors, and no stream', async () => {
    const document = parse('subscription { holdCountdown(orderNumber: "1", payToken: "x") { secondsLeft } }');
    const args = () => ({ schema, document, contextValue: contextWith([], true) });
    const compiled = await frames(subscribeCompiled, args());
    expect(JSON.stringify(compiled)).toBe(JSON.stringify(await frames(subscribe as never, args())));
    expect(compiled).toHaveLength(1);
  });

  it('ends the source when the reader returns or throws, as graphql-js does', async () => {
    const document = parse('subscription { holdCountdown(orderNumber: "1042", payToken: "t") { secondsLeft } }');
    /** A stream of ticks that notes how it ended: its `finally` runs when the reader stops it. */
    function watched() {
      const seen = { closed: false, thrown: undefined as unknown };
      const contextValue = contextWith([]);
      (contextValue.services as { live: unknown }).live = {
        async holdCountdown() {
          return (async function* () {
            try {
              for (const tick of TICKS) yield tick;
            } catch (error) {
              seen.thrown = error;
              throw error;
            } finally {
              seen.closed = true;
            }
          })();
        },
      };
      return { seen, args: { schema, document, contextValue } };
    }
    for (const run of [subscribeCompiled, subscribe as never as typeof subscribeCompiled]) {
      const returned = watched();
      const stream = (await run(returned.args)) as AsyncIterableIterator<unknown>;
      expect(await stream.next()).toEqual({ value: { data: { holdCountdown: { secondsLeft: 299 } } }, done: false });
      expect(await stream.return!()).toEqual({ value: undefined, done: true });
      expect(returned.seen.closed).toBe(true);
      expect(await stream.next()).toEqual({ value: undefined, done: true });

      const thrown = watched();
      const failing = (await run(thrown.args)) as AsyncIterableIterator<unknown>;
      await failing.next();
      const reason = new Error('the reader gave up');
      await expect(failing.throw!(reason)).rejects.toBe(reason);
      expect(thrown.seen).toEqual({ closed: true, thrown: reason });
    }
  });

  it('runs the operation the name asks for in a document of several', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const document = `
      subscription Options { sleeveOptionsChanged { charLimit } }
      subscription Hold($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft status } }`;
    const client = live.client();
    const hold = subscribeOverWs(client, document, { n: created.body.orderNumber, t: created.body.payToken }, 'Hold');
    expect((await hold.next()).holdCountdown).toEqual({ secondsLeft: 300, status: 'AWAITING_PAYMENT' });
    const options = subscribeOverWs(client, document, {}, 'Options');
    expect((await options.next()).sleeveOptionsChanged.charLimit).toBe(20);
  });
});
