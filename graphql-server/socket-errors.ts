/**
 * What an error may carry on a socket (graphql-ws). `extensions.http` is yoga's
 * instruction for the HTTP answer — a status and headers such as Retry-After — which yoga applies and strips from the
 * body over HTTP; nothing applies it on a socket, so it would reach the client as noise that looks like a contract.
 * A rate-limited error keeps `retryAfter`, the one part of it a socket client can act on.
 */
import { GraphQLError } from 'graphql';

/** `errors` with `extensions.http` left out, each error rebuilt only when it had one (most have none). */
export function withoutHttpExtensions(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((error) => {
    if (!error.extensions || !('http' in error.extensions)) return error;
    const { http: _forHttpOnly, ...extensions } = error.extensions;
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      originalError: error.originalError,
      extensions,
    });
  });
}

/** A parse error as yoga words it over HTTP: `extensions.code` GRAPHQL_PARSE_FAILED unless it has a code. */
export function parseFailed(error: GraphQLError): GraphQLError {
  if (error.extensions?.code !== undefined) return error;
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'GRAPHQL_PARSE_FAILED' },
  });
}
