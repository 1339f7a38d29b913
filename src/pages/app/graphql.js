/**
 * The pages' only way to the server: GraphQL over HTTP POST /graphql and over graphql-ws on the same path
 * (no private endpoints). graphql-ws's browser build is loaded first as a classic script (/assets/graphql-ws.js,
 * from node_modules), which defines the global `graphqlWs`.
 *
 * Trusted documents (docs/graphql.md#trusted-documents): a page names one of its operations
 * (src/pages/operations/*.graphql) and sends that document's hash, never its text, so a server that accepts only
 * trusted documents (GRAPHQL_TRUSTED_DOCUMENTS=only) serves the pages as before. The hashes come from
 * operations.js, which the server makes from the same manifest it accepts.
 */
import { OPERATIONS } from './operations.js';

/** The GraphQL-over-HTTP params of the trusted operation `name`: its hash in extensions.persistedQuery (APQ's shape). */
export function operation(name, variables = {}) {
  const sha256Hash = OPERATIONS[name];
  if (!sha256Hash) throw new Error(`No trusted document is named ${name}: add src/pages/operations/${name}.graphql and run scripts/trusted-documents.ts.`);
  return { operationName: name, variables, extensions: { persistedQuery: { version: 1, sha256Hash } } };
}

/** The same over graphql-ws, whose Subscribe message must carry a string `query`: empty, the hash says which. */
export function subscription(name, variables = {}) {
  return { query: '', ...operation(name, variables) };
}

/** A GraphQL answer with errors: `message` is the first error's, relayable as is (server texts are sentences). */
class GraphQLRequestError extends Error {
  constructor(errors) {
    super(errors[0]?.message ?? 'The request failed.');
    this.errors = errors;
    this.code = errors[0]?.extensions?.code;
    /** The input field a refusal names (`extensions.field`), when it names one. */
    this.field = errors[0]?.extensions?.field;
  }
}

/**
 * @param {{ authorization?: string, onState?: (state: 'live' | 'down') => void }} options
 *   authorization: `Bearer …` for staff (sent as a header and as connectionParams.authorization, docs/graphql.md#staff-authorization).
 */
export function connect({ authorization, onState } = {}) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  if (authorization) headers.authorization = authorization;

  /** Runs the trusted operation `name` (a query or a mutation); resolves to its data, rejects with its errors. */
  async function request(name, variables = {}) {
    const sent = JSON.stringify(operation(name, variables));
    let response;
    try {
      response = await fetch('/graphql', { method: 'POST', headers, body: sent });
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
   * Follows the trusted subscription `name`: `next` gets each payload's data. A GraphQL error (not a lost socket, which the client
   * retries by itself) resubscribes after a second unless `error` handles it; `complete` is called when the server
   * ends the stream. Returns a function that stops following.
   */
  function follow(name, variables, { next, error, complete }) {
    const payload = subscription(name, variables);
    let stop = () => {};
    let stopped = false;
    const start = () => {
      stop = ws.subscribe(payload, {
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
