/**
 * The Pothos builder: plugins and scalars only, no types (Pothos app-layout guide). Scope-auth comes first so
 * it wraps every other plugin; errors turns DomainError into the ApiError union member on fields that list it;
 * relay gives objects their global ids and the Node interface (docs/graphql.md#object-identity).
 */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { createGraphQLError } from 'graphql-yoga';
import { DomainError } from '../src/kernel/errors.ts';
import type { GraphQLContext } from './context.ts';
import { decodeGlobalId, encodeGlobalId } from './global-ids.ts';

/** What a caller without the staff token gets from a staff field, and from `node` on a staff object. */
export const staffOnlyError = () =>
  createGraphQLError('Staff only: send Authorization: Bearer <ADMIN_TOKEN>.', {
    extensions: { code: 'UNAUTHORIZED', retryable: false },
  });

/** An id this API never gave out: a clear VALIDATION_FAILED, never an unexpected error. */
export const notAnIdError = (id: string) =>
  new DomainError('validation_failed', `${JSON.stringify(id.slice(0, 100))} is not an id this API gave out.`, { field: 'id' });

function decodeOrRefuse(id: string) {
  const decoded = decodeGlobalId(id);
  if (!decoded) throw notAnIdError(id);
  return decoded;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { staff: boolean };
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, ErrorsPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({ staff: context.viewer.isStaff }),
    // Recommended with subscriptions: refuse before subscribing, not on the first event.
    authorizeOnSubscribe: true,
    unauthorizedError: staffOnlyError,
  },
  errors: {
    // Never [Error]: that would expose the message of any unexpected error.
    defaultTypes: [],
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    encodeGlobalID: encodeGlobalId,
    // For any `t.arg.globalID` a field may take: the same two forms as encodeGlobalId (the default knows one).
    decodeGlobalID: decodeOrRefuse,
    // node and nodes are ours (schema/fields/nodes.ts): each item is authorized and fails on its own.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: {
      description: 'An object with a global id: fetch it again with node(id) (docs/graphql.md#object-identity).',
    },
    // Node.id on the interface; each type's own id adds what its id is made of (schema/types/nodes.ts).
    idFieldOptions: {
      description:
        'Global id: unique across every type and stable for the object\'s life, so a normalised cache keys on it; pass it to node(id) or nodes(ids). Treat it as opaque.',
    },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/** An enum's values, each as itself with what it means (GraphiQL and codegen show it): for `builder.enumType`. */
export const describedValues = <T extends string>(values: readonly T[], meanings: Record<T, string>) =>
  Object.fromEntries(values.map((v) => [v, { value: v, description: meanings[v] }])) as Record<T, { value: T; description: string }>;
