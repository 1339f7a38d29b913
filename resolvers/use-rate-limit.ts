/**
 * useRateLimit: GraphQL operations that do the work of a rate-limited REST path count against the same limit
 * (issue: "the same limits apply to the GraphQL operations that do the same work"). Over the limit the
 * operation is not executed: one RATE_LIMITED error, HTTP 429 and Retry-After, as on REST.
 */
import type { Plugin } from '@envelop/core';
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionNode } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { RateGroup, RateLimiter } from '../src/security/rate-limiter.ts';
import type { GraphQLContext } from '../schema/context.ts';

/** Root fields and the REST route group whose work they do. */
const ROOT_FIELD_GROUPS: Record<string, RateGroup> = {
  sleeveOptions: 'options',
  order: 'lookup',
  createOrder: 'create',
  payOrder: 'pay',
};

export function useRateLimit(limiter: RateLimiter): Plugin<GraphQLContext> {
  // Groups per operation node: a document's operations are parsed once and cached, so this is computed once.
  const groupsOf = new WeakMap<OperationDefinitionNode, RateGroup[]>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const document = args.document as DocumentNode;
      const operation = document.definitions.find(
        (d): d is OperationDefinitionNode =>
          d.kind === Kind.OPERATION_DEFINITION && (args.operationName == null || d.name?.value === args.operationName),
      );
      if (!operation) return;
      let groups = groupsOf.get(operation);
      if (!groups) {
        groups = operation.selectionSet.selections.flatMap((s: SelectionNode) =>
          s.kind === Kind.FIELD && ROOT_FIELD_GROUPS[s.name.value] ? [ROOT_FIELD_GROUPS[s.name.value]!] : [],
        );
        groupsOf.set(operation, groups);
      }
      const groupsToTake: RateGroup[] = groups;
      const context = args.contextValue as GraphQLContext;
      for (const group of groupsToTake) {
        const decision = limiter.take(group, context.clientAddress);
        if (!decision.allowed) {
          setResultAndStopExecution({
            errors: [
              createGraphQLError('Too many requests. Wait a moment, then try again.', {
                extensions: {
                  code: 'RATE_LIMITED',
                  retryable: true,
                  http: { status: 429, headers: { 'retry-after': String(decision.retryAfter) } },
                },
              }),
            ],
          });
          return;
        }
      }
    },
  };
}
