/**
 * GraphQL operations as spans (docs/operations.md#tracing), in yoga's pipeline: the execute phase runs inside a
 * `graphql.execute` span (so the transactions it opens are its children), named and marked by the operation's type
 * and name, with an error status when the result carries errors. Added only while tracing is on — and then the
 * fast JSON path steps aside (graphql-door.ts), so every operation is traced on the one pipeline.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { getOperationAST } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { inSpan, SpanKind } from '../src/operations/tracing.ts';

export const useTracing: Plugin = {
  instrumentation: {
    // The one span helper of the gateway (tracing.ts): active while execution runs, ended when it is done.
    execute: (_payload, wrapped) => inSpan('graphql.execute', SpanKind.INTERNAL, {}, async () => wrapped()),
  },
  onExecute({ args }) {
    const span = trace.getActiveSpan();
    if (!span) return;
    const operation = getOperationAST(args.document, args.operationName);
    span.setAttribute('graphql.operation.type', operation?.operation ?? 'unknown');
    if (operation?.name) span.setAttribute('graphql.operation.name', operation.name.value);
    span.updateName(`graphql.${operation?.operation ?? 'execute'}${operation?.name ? ` ${operation.name.value}` : ''}`);
    return {
      onExecuteDone({ result }) {
        if (!isAsyncIterable(result) && result.errors?.length) span.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0]!.extensions?.code?.toString() ?? 'errors' });
      },
    };
  },
};
