/**
 * The Pothos builder: plugins and scalars only, no types (Pothos app-layout guide). Scope-auth comes first so
 * it wraps every other plugin; errors turns DomainError into the ApiError union member on fields that list it.
 */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { createGraphQLError } from 'graphql-yoga';
import type { GraphQLContext } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { staff: boolean };
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, ErrorsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({ staff: context.viewer.isStaff }),
    // Recommended with subscriptions: refuse before subscribing, not on the first event.
    authorizeOnSubscribe: true,
    unauthorizedError: () =>
      createGraphQLError('Staff only: send Authorization: Bearer <ADMIN_TOKEN>.', {
        extensions: { code: 'UNAUTHORIZED' },
      }),
  },
  errors: {
    // Never [Error]: that would expose the message of any unexpected error.
    defaultTypes: [],
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
