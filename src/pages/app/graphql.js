/**
 * The pages' only way to the server: GraphQL over HTTP POST /graphql and over graphql-ws on the same path
 * (no private endpoints). graphql-ws's browser build is loaded first as a classic script (/assets/graphql-ws.js,
 * from node_modules), which defines the global `graphqlWs`. The WebSocket client is made at the first `follow`, not
 * at import: a lost request for that script then costs the live updates only, not the HTTP requests (staff sign-in,
 * the ordering page's reads), and the script is asked for again until it comes.
 *
 * Trusted documents (docs/graphql.md#trusted-documents): a page names one of its operations
 * (src/pages/operations/*.graphql) and sends that document's hash, never its text, so a server that accepts only
 * trusted documents (GRAPHQL_TRUSTED_DOCUMENTS=only) serves the pages as before. The hashes come from
 * operations.js, which the server makes from the same manifest it accepts.
 */
import { retryDelay } from './dom.js';
import { OPERATIONS } from './operations.js';

/**
 * graphql-ws pings the server every PING_MS and only pings: a socket whose pongs stopped coming (a venue's Wi-Fi
 * dropping, a half-open TCP connection) looked connected until the OS gave up on it, many minutes later, and the
 * screens said "Live" over a stale board. So a pong later than PONG_MS closes the socket (graphql-ws's recipe in
 * ClientOptions.keepAlive) and the client connects again. A (re)connection not acknowledged within CONNECT_MS is
 * given up and tried again too: over a link that came back, a handshake sent while it was down never completes.
 */
const PING_MS = 5_000;
const PONG_MS = 3_000;
const CONNECT_MS = 10_000;
/** Closes a socket whose pong is late; 4408 is graphql-ws's own (its recipe's) and the client retries it. */
const PONG_TIMEOUT = 4408;
/** When the page last reloaded itself for an unknown operation (sessionStorage: survives the reload, this tab only). */
const RELOADED_KEY = 'sleeve.reloadedForOperations';
const RELOAD_EVERY_MS = 60_000;

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
 * A page open across a deploy that changed one of its operations holds the old hash, answered
 * PERSISTED_QUERY_NOT_FOUND until it is reloaded (docs/graphql.md#trusted-documents), and nobody reloads an
 * unattended screen: this reloads it. At most once a minute (a server that keeps refusing, a stale cached
 * operations.js, would otherwise reload it in a loop): sooner than that, the reload waits for the minute to pass.
 * Returns whether it reloads now.
 */
let reloadPending = false;
export function reloadForNewOperations() {
  let wait;
  try {
    wait = Math.min(RELOAD_EVERY_MS, Number(sessionStorage.getItem(RELOADED_KEY)) + RELOAD_EVERY_MS - Date.now());
    if (wait <= 0) sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    return false; // no storage, no guard against a loop: no reload
  }
  if (wait <= 0) {
    location.reload();
    return true;
  }
  if (!reloadPending) setTimeout(() => { reloadPending = false; reloadForNewOperations(); }, wait);
  reloadPending = true;
  return false;
}

const OUTDATED = 'PERSISTED_QUERY_NOT_FOUND';
/** Whether a GraphQL answer's errors say the server no longer knows this page's operation. */
export const isOutdated = (errors) => Array.isArray(errors) && errors.some((e) => e?.extensions?.code === OUTDATED);

/** The error a page shows while it reloads for its new operations, or in place of a reload it may not make yet. */
function outdatedError(reloading) {
  const message = reloading
    ? 'This page has been updated on the server: it is reloading.'
    : 'This page is out of date: reload it to continue.';
  return new GraphQLRequestError([{ message, extensions: { code: OUTDATED } }]);
}

/** Half to all of 500 ms · 2^tries, at most 10 s (dom.js's retryDelay). */
const backoff = (tries) => new Promise((r) => setTimeout(r, retryDelay(tries, { firstMs: 500, maxMs: 10_000 })));

/** graphql-ws's script, asked for again when its first request was lost; concurrent askers share one request. */
let loading = null;
function loadGraphqlWs() {
  if (globalThis.graphqlWs) return Promise.resolve(globalThis.graphqlWs);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/assets/graphql-ws.js';
    script.onload = () => (globalThis.graphqlWs ? resolve(globalThis.graphqlWs) : reject(new Error('graphql-ws did not load')));
    script.onerror = () => { script.remove(); reject(new Error('graphql-ws did not load')); };
    document.head.append(script);
  }).finally(() => { loading = null; });
  return loading;
}

/** Whether the browser can send `value` as a header: fetch throws on a character outside Latin-1, say. */
function sendable(value) {
  try { new Headers({ authorization: value }); return true; } catch { return false; }
}

/**
 * @param {{ authorization?: string, onState?: (state: 'live' | 'down', reason?: string) => void, beforeReload?: () => void }} options
 *   authorization: `Bearer …` for staff (sent as a header and as connectionParams.authorization, docs/graphql.md#staff-authorization).
 *   onState: 'live' when the socket is connected, 'down' when it is lost; `reason`, a sentence, when it is not a lost
 *   socket (the live connection could not start).
 *   beforeReload: called just before the page reloads for its new operations: keep what the user typed.
 *
 * Every page, not only the display: an answer of PERSISTED_QUERY_NOT_FOUND (open across a deploy that changed one
 * of its operations) reloads the page (reloadForNewOperations) and rejects with a sentence saying so. The server ran
 * nothing it was asked, so a reload repeats nothing; an order form left to fail would refuse every submission.
 */
export function connect({ authorization, onState, beforeReload } = {}) {
  /** The page's operations are unknown to the server: reload (at most once a minute); the error to show meanwhile. */
  function outdated() {
    // What the page keeps is a courtesy: storage full or refused must not stop the reload, nor replace its message.
    try { beforeReload?.(); } catch { /* reload without it */ }
    return outdatedError(reloadForNewOperations());
  }

  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  if (authorization) headers.authorization = authorization;
  // A token typed on another keyboard layout (токен) is not one the server gave out: refused as a wrong token, not
  // sent. fetch threw on it, and that read as "The server cannot be reached".
  const refused = authorization !== undefined && !sendable(authorization);

  /** Runs the trusted operation `name` (a query or a mutation); resolves to its data, rejects with its errors. */
  async function request(name, variables = {}) {
    if (refused) throw new GraphQLRequestError([{ message: 'That token is not the admin token.', extensions: { code: 'UNAUTHORIZED' } }]);
    const sent = JSON.stringify(operation(name, variables));
    let response;
    try {
      response = await fetch('/graphql', { method: 'POST', headers, body: sent });
    } catch {
      throw new GraphQLRequestError([{ message: 'The server cannot be reached. Check the connection and try again.' }]);
    }
    const body = await response.json().catch(() => ({ errors: [{ message: `The server answered ${response.status}.` }] }));
    if (isOutdated(body.errors)) throw outdated();
    if (body.errors?.length) throw new GraphQLRequestError(body.errors);
    return body.data;
  }

  let disposed = false;
  let client = null;
  /** The WebSocket client, made once graphql-ws's script is there (asked for again, with backoff, until it is). */
  function live() {
    client ??= (async () => {
      for (let tries = 0; !disposed; tries++) {
        try {
          return createLiveClient(await loadGraphqlWs());
        } catch {
          onState?.('down', 'The live connection could not start. Trying again…');
          await backoff(tries);
        }
      }
      return null;
    })();
    return client;
  }

  function createLiveClient(graphqlWs) {
    let socket = null;
    let pongTimer = 0;
    let connectTimer = 0;
    const ws = graphqlWs.createClient({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
      connectionParams: authorization ? { authorization } : undefined,
      keepAlive: PING_MS,
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: backoff,
      on: {
        connecting: () => { clearTimeout(connectTimer); connectTimer = setTimeout(() => ws.terminate(), CONNECT_MS); },
        connected: (s) => { clearTimeout(connectTimer); socket = s; onState?.('live'); },
        ping: (received) => { if (!received) { clearTimeout(pongTimer); pongTimer = setTimeout(pongLate, PONG_MS); } },
        pong: (received) => { if (received) clearTimeout(pongTimer); },
        closed: () => { clearTimeout(pongTimer); clearTimeout(connectTimer); socket = null; onState?.('down'); },
      },
    });
    function pongLate() {
      if (socket?.readyState === WebSocket.OPEN) socket.close(PONG_TIMEOUT, 'Request Timeout');
      // Over a dead link the close handshake never completes and the browser holds `close` back while it waits for
      // it (Chromium: still none 30 s on, live-connection.test.ts): terminate() tells the client now (4499, retried).
      ws.terminate();
    }
    if (disposed) ws.dispose();
    return ws;
  }

  /**
   * Follows the trusted subscription `name`: `next` gets each payload's data. A GraphQL error (not a lost socket, which the client
   * retries by itself) resubscribes after a second unless `error` handles it, except that an unknown operation
   * reloads the page (connect's note) and is passed to `error` only to be shown; `complete` is called when the server
   * ends the stream. Returns a function that stops following.
   */
  function follow(name, variables, { next, error, complete }) {
    const payload = subscription(name, variables);
    let stop = () => {};
    let stopped = false;
    /** PERSISTED_QUERY_NOT_FOUND reloads the page whether or not the caller handles errors (never a resubscribe). */
    const stale = () => {
      const reason = outdated();
      error?.(reason);
    };
    const start = () => live().then((ws) => {
      if (stopped || !ws) return;
      stop = ws.subscribe(payload, {
        next: (message) => {
          if (isOutdated(message.errors)) return stale();
          if (message.errors?.length) return error?.(new GraphQLRequestError(message.errors));
          if (message.data) next(message.data);
        },
        error: (e) => {
          if (stopped) return;
          // Resubscribing would be refused again: the page reloads, or says it is out of date.
          if (isOutdated(e)) return stale();
          if (error && Array.isArray(e)) return error(new GraphQLRequestError(e));
          setTimeout(() => stopped || start(), 1000 + Math.random() * 1000);
        },
        complete: () => complete?.(),
      });
    });
    start();
    return () => {
      stopped = true;
      stop();
    };
  }

  return {
    request,
    follow,
    dispose: () => {
      disposed = true;
      client?.then((ws) => ws?.dispose());
    },
  };
}
