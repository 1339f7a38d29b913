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
 * of several operations, runs on graphql-js as before.
 */
import { createSourceEventStream, Kind, subscribe, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from '@envelop/core';

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
  const { contextValue, variableValues } = args;
  return mapAsyncIterator(source as AsyncIterable<unknown>, (event) => plan(event, contextValue, variableValues ?? {}));
}

export const useCompiledSubscriptions: Plugin = {
  onSubscribe({ setSubscribeFn }) {
    setSubscribeFn(subscribeCompiled as never);
  },
};
