/**
 * useMetrics: every GraphQL operation executed through yoga's envelop — over HTTP and over WebSocket, queries,
 * mutations and subscriptions — counted by operation name, type and outcome, and every open subscription by root
 * field and transport (docs/operations.md#metrics). The fast JSON path counts its own operations the same way
 * (fast-path.ts), so each operation is counted once, whichever path ran it.
 *
 * Listed before useRateLimit: a refusal stops execution in that plugin's onExecute, and only the hooks that ran
 * before it see the result (an `error`).
 */
import type { Plugin } from '@envelop/core';
import { getOperationAST, Kind, type DocumentNode, type ExecutionResult, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { GatewayMetrics, OperationType, SubscriptionTransport } from '../src/operations/metrics.ts';

interface OperationFacts {
  name: string | undefined;
  type: OperationType;
  /** The first root field: what a subscription subscribes to. */
  field: string;
}

const UNKNOWN: OperationFacts = { name: undefined, type: 'query', field: 'unknown' };
/** Per document, when it holds one operation (almost always): its facts, found once. */
const single = new WeakMap<DocumentNode, OperationFacts | null>();

/** The operation that runs: the document's only one, or the one `operationName` names. */
export function operationFacts(document: DocumentNode, operationName: string | null | undefined): OperationFacts {
  let known = single.get(document);
  if (known === undefined) {
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    known = operations.length === 1 ? factsOf(document, operations[0]!) : null;
    single.set(document, known);
  }
  if (known) return known;
  const operation = getOperationAST(document, operationName);
  return operation ? factsOf(document, operation) : UNKNOWN;
}

function factsOf(document: DocumentNode, operation: OperationDefinitionNode): OperationFacts {
  return { name: operation.name?.value, type: operation.operation as OperationType, field: firstField(document, operation.selectionSet) ?? 'unknown' };
}

function firstField(document: DocumentNode, selectionSet: SelectionSetNode): string | undefined {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) return selection.name.value;
    if (selection.kind === Kind.INLINE_FRAGMENT) return firstField(document, selection.selectionSet);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    if (fragment?.kind === Kind.FRAGMENT_DEFINITION) return firstField(document, fragment.selectionSet);
  }
  return undefined;
}

/** yoga's context holds the Fetch request over HTTP (SSE asks for text/event-stream); graphql-ws has none. */
function transportOf(context: unknown): SubscriptionTransport {
  const request = (context as { request?: { headers: { get(name: string): string | null } } } | null)?.request;
  if (!request) return 'ws';
  return request.headers.get('accept')?.includes('text/event-stream') ? 'sse' : 'http';
}

export function useMetrics(metrics: GatewayMetrics): Plugin {
  // One hooks object per gateway, not a closure per operation (see rest-compat/node-adapter.ts on tsx's __name).
  const done = {
    onExecuteDone({ args, result }: { args: { document: DocumentNode; operationName?: string | null }; result: ExecutionResult | AsyncIterable<unknown> }) {
      const { name, type } = operationFacts(args.document, args.operationName);
      // An incremental result (@defer, @stream) is counted when it starts.
      metrics.operation(name, type, !isAsyncIterable(result) && result.errors?.length ? 'error' : 'ok');
    },
  };
  return {
    onExecute: () => done,
    onSubscribe({ args }) {
      const { name, field } = operationFacts(args.document, args.operationName);
      const transport = transportOf(args.contextValue);
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            // Refused before it started (a wrong payToken, a staff field without the token): no stream opened.
            metrics.operation(name, 'subscription', 'error');
            return;
          }
          metrics.operation(name, 'subscription', 'ok');
          metrics.subscriptionOpened(field, transport);
          return { onEnd: () => metrics.subscriptionClosed(field, transport) };
        },
      };
    },
  };
}
