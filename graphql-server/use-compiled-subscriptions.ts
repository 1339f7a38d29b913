/**
 * Subscription events through graphql-jit's compiled plan (issue 21, the live path): graphql-js runs a
 * subscription's whole `execute` again for every event — a new execution context, the variables coerced again,
 * the fields collected, every resolver's result completed through its promise checks — and at thousands of hold
 * ticks a second that was most of the gateway's work per tick (docs/graphql.md#subscriptions).
 *
 * So the source stream still comes from graphql-js (`createSourceEventStream`: the root field's `subscribe` with its
 * own arguments, its errors located as graphql-js locates them), and each event is then executed by the plan
 * graphql-jit compiled for the document once — the same plan that runs queries (useGraphQlJit, the fast JSON path).
 * graphql-jit's own `subscribe` is not used: it hands the root field's `subscribe` all the operation's variables
 * instead of the field's arguments (yoga-server.ts, jitFits).
 *
 * Every plugin around it still sees the stream: envelop's onSubscribe hooks (metrics, masking, the end of streams on
 * shutdown) wrap whatever this returns, over WebSocket and SSE alike. A document graphql-jit cannot compile, or one
 * of several operations, runs on graphql-js as before. The one exception is the tick path below (writeEventNow): the
 * plain ticks of a stream that offers them, written by the WebSocket transport while graphql-ws waits for the stream.
 */
import {
  createSourceEventStream,
  Kind,
  subscribe,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isAsyncIterable, type Plugin } from '@envelop/core';
import type { DirectTaker } from '../src/events/latest-stream.ts';

/**
 * Where a transport that can write an event's result at once keeps its writer, in the operation's context
 * (ws-transport.ts). It returns false when it cannot write now (a socket backed up or closing).
 */
export const WRITE_NEXT_NOW = Symbol('writeNextNow');
export type WriteNextNow = (result: ExecutionResult) => boolean;

/** A source stream that can hand a value to a taker at once instead of its reader (LatestStream). */
interface OffersDirect {
  offerTo(taker: DirectTaker<unknown>): void;
}

/** null: compiled once and found unfit (several operations, a compile error): graphql-js runs it. */
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledQuery['query'] | null>>();

function planOf(schema: GraphQLSchema, document: DocumentNode): CompiledQuery['query'] | null {
  let bySchema = plans.get(schema);
  if (!bySchema) plans.set(schema, (bySchema = new WeakMap()));
  let plan = bySchema.get(document);
  if (plan === undefined) {
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const compiled = operations.length === 1 ? compileQuery(schema, document) : null;
    plan = compiled && isCompiledQuery(compiled) ? compiled.query : null;
    bySchema.set(document, plan);
  }
  return plan;
}

/** graphql-js's `subscribe`, with each event executed by the document's compiled plan. */
export async function subscribeCompiled(args: ExecutionArgs): Promise<unknown> {
  const plan = planOf(args.schema, args.document);
  if (!plan) return subscribe(args);
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source; // the root field refused: its errors, no stream
  const { contextValue } = args;
  const variables = args.variableValues ?? {};
  const run = (event: unknown) => plan(event, contextValue, variables);
  const writeNow = (contextValue as { [WRITE_NEXT_NOW]?: WriteNextNow } | null)?.[WRITE_NEXT_NOW];
  const offers = source as Partial<OffersDirect>;
  if (writeNow && typeof offers.offerTo === 'function') offers.offerTo((event) => writeEventNow(event, run, writeNow));
  return new ExecutedEvents((source as AsyncIterable<unknown>)[Symbol.asyncIterator](), run);
}

/**
 * The tick path (docs/graphql.md#the-tick-path): a hold tick's result written to its socket as the ticker produces
 * it, past the iterators of envelop and graphql-ws, each of which made promises per event of every subscriber. Only
 * a result with no errors, computed at once, goes this way: a result with errors is what masking and the production
 * hook change, so it is refused here and takes the reader's way through them, where the plan runs again.
 */
function writeEventNow(event: unknown, run: (event: unknown) => unknown, writeNow: WriteNextNow): boolean {
  // The ticker calls this for every watch of a slot in turn: whatever fails here is left to the reader's way,
  // where ExecutedEvents reports it for this stream alone, not thrown into the ticker and the other watches.
  try {
    const result = run(event);
    if (isPromiseLike(result)) return false;
    const executed = result as ExecutionResult;
    return executed.errors === undefined && writeNow(executed);
  } catch {
    return false;
  }
}

/**
 * Each event of `source`, executed by `run`: one `then` per event. envelop's `mapAsyncIterator` (that of
 * @whatwg-node/promise-helpers) wraps every value in several promise-like objects, each with closures of its own;
 * at 8,000 hold ticks a second it made about 2 KB of garbage per tick (docs/graphql.md#what-one-subscriber-costs).
 */
class ExecutedEvents implements AsyncIterableIterator<unknown> {
  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly run: (event: unknown) => unknown,
  ) {}

  private readonly step = (result: IteratorResult<unknown>): IteratorResult<unknown> | Promise<IteratorResult<unknown>> => {
    if (result.done) return result;
    let value: unknown;
    try {
      value = this.run(result.value);
    } catch (error) {
      // As mapAsyncIterator does: the source is closed, then the error goes to the reader.
      return this.close().then(() => Promise.reject(error), () => Promise.reject(error));
    }
    return isPromiseLike(value) ? Promise.resolve(value).then(eventResult) : { value, done: false };
  };

  next(): Promise<IteratorResult<unknown>> {
    return this.source.next().then(this.step);
  }

  return(): Promise<IteratorResult<unknown>> {
    return this.close();
  }

  throw(error?: unknown): Promise<IteratorResult<unknown>> {
    if (this.source.throw) return this.source.throw(error).then(this.step);
    return this.close().then(() => Promise.reject(error));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<unknown> {
    return this;
  }

  private close(): Promise<IteratorResult<unknown>> {
    return Promise.resolve(this.source.return?.()).then(() => ({ value: undefined, done: true }));
  }
}

const eventResult = (value: unknown): IteratorResult<unknown> => ({ value, done: false });
const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';

export const useCompiledSubscriptions: Plugin = {
  onSubscribe({ setSubscribeFn }) {
    setSubscribeFn(subscribeCompiled as never);
  },
};
