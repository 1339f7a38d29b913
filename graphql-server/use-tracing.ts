/**
 * GraphQL operations as spans (docs/operations.md#tracing), in yoga's pipeline: the execute phase runs inside a
 * `graphql.execute` span (so the transactions it opens are its children), and a subscription's subscribe phase (its
 * checks, up to the stream it returns) inside a `graphql.subscribe` span; each is named and marked by the operation's
 * type and name, with an error status when the result carries errors. A subscription's span ends once its stream is
 * set up, not when the stream ends (minutes or hours later, which a trace viewer could not show). Added only while
 * tracing is on — and then the fast JSON path steps aside (graphql-door.ts), so every operation is traced on the one
 * pipeline.
 */
import { SpanStatusCode, trace, type Span, type SpanContext } from '@opentelemetry/api';
import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { inSpan, SpanKind } from '../src/operations/tracing.ts';

/** The upgrade span a graphql-ws operation's context carries (ws-transport.ts); undefined over HTTP. */
const upgradeOf = (context: object): SpanContext | undefined => (context as { upgradeSpan?: SpanContext }).upgradeSpan;

/** Names the active span after the operation (`graphql.mutation Create`); the span, or undefined when none is active. */
function nameActiveSpan(args: { document: DocumentNode; operationName?: string | null }): Span | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const operation = getOperationAST(args.document, args.operationName);
  span.setAttribute('graphql.operation.type', operation?.operation ?? 'unknown');
  if (operation?.name) span.setAttribute('graphql.operation.name', operation.name.value);
  span.updateName(`graphql.${operation?.operation ?? 'execute'}${operation?.name ? ` ${operation.name.value}` : ''}`);
  return span;
}

/** An error status, its message the first error's code, when a (non-stream) result carries errors. */
function markErrors(span: Span, result: ExecutionResult | AsyncIterable<unknown>): void {
  if (!isAsyncIterable(result) && result.errors?.length) span.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0]!.extensions?.code?.toString() ?? 'errors' });
}

export const useTracing: Plugin = {
  instrumentation: {
    // The one span helper of the gateway (tracing.ts): active while the phase runs, ended when it is done.
    // Over graphql-ws no span is active (a socket's messages run outside its upgrade's): the operation is a root
    // span, linked to the upgrade that opened its socket (ws-upgrade.ts), so one finds the other.
    execute: ({ context }, wrapped) => inSpan('graphql.execute', SpanKind.INTERNAL, {}, async () => wrapped(), undefined, upgradeOf(context)),
    subscribe: ({ context }, wrapped) => inSpan('graphql.subscribe', SpanKind.INTERNAL, {}, async () => wrapped(), undefined, upgradeOf(context)),
  },
  onExecute({ args }) {
    const span = nameActiveSpan(args);
    return span && { onExecuteDone: ({ result }) => markErrors(span, result as ExecutionResult) };
  },
  onSubscribe({ args }) {
    const span = nameActiveSpan(args);
    return span && { onSubscribeResult: ({ result }) => markErrors(span, result as ExecutionResult) };
  },
};
