/**
 * useRateLimit: GraphQL operations that do the work of a rate-limited REST path count against the same limit
 * (issue: "the same limits apply to the GraphQL operations that do the same work"). Over the limit the
 * operation is not executed: one RATE_LIMITED error, HTTP 429 and Retry-After, as on REST.
 */
import type { Plugin } from '@envelop/core';
import { Kind, type DocumentNode, type ExecutionResult } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { RateGroup, RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { GraphQLContext } from '../schema/context.ts';

/** Root fields and the REST route group whose work they do. */
const ROOT_FIELD_GROUPS: Record<string, RateGroup> = {
  sleeveOptions: 'options',
  order: 'lookup',
  createOrder: 'create',
  payOrder: 'pay',
};

/** The groups an operation of a document touches, by operation name ('' for an anonymous or the only one). */
function groupsByOperation(document: DocumentNode): Map<string, RateGroup[]> {
  const byName = new Map<string, RateGroup[]>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const groups: RateGroup[] = [];
    for (const selection of definition.selectionSet.selections) {
      const group = selection.kind === Kind.FIELD ? ROOT_FIELD_GROUPS[selection.name.value] : undefined;
      if (group) groups.push(group);
    }
    byName.set(definition.name?.value ?? '', groups);
    if (!byName.has('')) byName.set('', groups); // a single named operation may be run without its name
  }
  return byName;
}

/** Root-field groups per operation name, computed once per parsed document (documents are cached). */
const groupCache = new WeakMap<DocumentNode, Map<string, RateGroup[]>>();

/**
 * Takes one request from each limit the operation touches; over a limit, the result to answer instead of
 * executing (one RATE_LIMITED error, HTTP 429 and Retry-After, as on REST), else null.
 */
export function rateLimitResult(limiter: RateLimiter, document: DocumentNode, operationName: string | null | undefined, client: string): ExecutionResult | null {
  let byName = groupCache.get(document);
  if (!byName) groupCache.set(document, (byName = groupsByOperation(document)));
  const groups = byName.get(operationName ?? '') ?? [];
  for (const group of groups) {
    const decision = limiter.take(group, client);
    if (decision.allowed) continue;
    return {
      errors: [
        createGraphQLError('Too many requests. Wait a moment, then try again.', {
          extensions: {
            code: 'RATE_LIMITED',
            retryable: true,
            http: { status: 429, headers: { 'retry-after': String(decision.retryAfter) } },
          },
        }),
      ],
    };
  }
  return null;
}

export function useRateLimit(limiter: RateLimiter): Plugin<GraphQLContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const client = (args.contextValue as GraphQLContext).clientAddress;
      const limited = rateLimitResult(limiter, args.document as DocumentNode, args.operationName, client);
      if (limited) setResultAndStopExecution(limited);
    },
  };
}
