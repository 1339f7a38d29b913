/**
 * The pages' only way to the server: GraphQL over HTTP POST /graphql and over graphql-ws on the same path
 * (no private endpoints). graphql-ws's browser build is loaded first as a classic script (/assets/graphql-ws.js,
 * from node_modules), which defines the global `graphqlWs`.
 */

/** A GraphQL answer with errors: `message` is the first error's, relayable as is (server texts are sentences). */
class GraphQLRequestError extends Error {
  constructor(errors) {
    super(errors[0]?.message ?? 'The request failed.');
    this.errors = errors;
    this.code = errors[0]?.extensions?.code;
  }
}

/**
 * @param {{ authorization?: string, onState?: (state: 'live' | 'down') => void }} options
 *   authorization: `Bearer …` for staff (sent as a header and as connectionParams.authorization, docs/graphql.md#staff-authorization).
 */
export function connect({ authorization, onState } = {}) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  if (authorization) headers.authorization = authorization;

  async function request(query, variables = {}) {
    let response;
    try {
      response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    } catch {
      throw new GraphQLRequestError([{ message: 'The server cannot be reached. Check the connection and try again.' }]);
    }
    const body = await response.json().catch(() => ({ errors: [{ message: `The server answered ${response.status}.` }] }));
    if (body.errors?.length) throw new GraphQLRequestError(body.errors);
    return body.data;
  }

  const ws = globalThis.graphqlWs.createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: authorization ? { authorization } : undefined,
    keepAlive: 10_000,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    // Jittered backoff, at most 10 s, as the pickup display does: a restarted server is not met by everyone at once.
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** retries) * (0.5 + Math.random() / 2))),
    on: { connected: () => onState?.('live'), closed: () => onState?.('down') },
  });

  /**
   * Follows a subscription: `next` gets each payload's data. A GraphQL error (not a lost socket, which the client
   * retries by itself) resubscribes after a second unless `error` handles it; `complete` is called when the server
   * ends the stream. Returns a function that stops following.
   */
  function follow(query, variables, { next, error, complete }) {
    let stop = () => {};
    let stopped = false;
    const start = () => {
      stop = ws.subscribe({ query, variables }, {
        next: (message) => {
          if (message.errors?.length) return error?.(new GraphQLRequestError(message.errors));
          if (message.data) next(message.data);
        },
        error: (e) => {
          if (stopped) return;
          if (error && Array.isArray(e)) return error(new GraphQLRequestError(e));
          setTimeout(() => stopped || start(), 1000 + Math.random() * 1000);
        },
        complete: () => complete?.(),
      });
    };
    start();
    return () => {
      stopped = true;
      stop();
    };
  }

  return { request, follow, dispose: () => ws.dispose() };
}
