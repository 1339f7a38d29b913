/**
 * The status of a request error that arises in execution (docs/graphql.md#status-codes). GraphQL over HTTP says of
 * `application/graphql-response+json`: a response without a `data` entry MUST have a 4xx or 5xx status, and a
 * variable that fails to coerce SHOULD get 400. graphql-js and graphql-jit report that failure from execution, as
 * errors and no `data`, and yoga answered it 200 (graphql-http's audit 86EE passes only because its probe's variable
 * is unused, a validation error). Such errors are marked as yoga marks its own parse and validation errors,
 * `extensions.http` with `spec: true`: 400 under graphql-response+json, still 200 under application/json, as that
 * media type's rules say (audit 7B9B). yoga strips `http` from the body, so the body is unchanged.
 *
 * Both paths call this before yoga's result processor: useJsonMediaType (yoga-server.ts) and the fast JSON path.
 */
import { GraphQLError, type ExecutionResult } from 'graphql';

/**
 * A request error of execution: a GraphQLError of no field (no path), raised by GraphQL itself (every error it wraps
 * is a GraphQLError too, as a scalar's parse error is), with no code (but coercion's), status or `unexpected` mark. A masked
 * error has `unexpected`; a DomainError a code; a refusal (429) a status; an unknown APQ hash its code.
 */
function isRequestError(error: unknown): error is GraphQLError {
  if (!(error instanceof GraphQLError) || error.path !== undefined) return false;
  // graphql-jit's coercion errors carry no extensions object at all.
  const { code, http, unexpected } = error.extensions ?? {};
  // BAD_USER_INPUT: a coercion error as coercion-errors.ts words it (without the value sent).
  if ((code !== undefined && code !== 'BAD_USER_INPUT') || http !== undefined || unexpected !== undefined) return false;
  for (let cause = error.originalError; cause != null; cause = (cause as GraphQLError).originalError) {
    if (!(cause instanceof GraphQLError)) return false;
  }
  return true;
}

export function withRequestErrorStatus<R extends ExecutionResult>(result: R): R {
  if (result.data !== undefined || !result.errors?.length || !result.errors.every(isRequestError)) return result;
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        originalError: error.originalError,
        extensions: { ...error.extensions, http: { status: 400, spec: true } },
      }),
  );
  return { ...result, errors };
}
