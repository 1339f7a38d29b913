/**
 * CORS per CORS_ORIGINS (docs/edge.md#cors), decided once here and used by every door: the REST router
 * (rest-compat/api.ts), yoga's path (graphql-server/use-cors.ts) and the fast JSON path (graphql-server/fast-path.ts),
 * so that the two GraphQL paths can never answer one request with different headers.
 *
 * - Unset: any origin, without credentials: `Access-Control-Allow-Origin: *`. No cookie is ever used, so an open
 *   origin exposes nothing a browser holds; and `*` (unlike an echoed origin) can never carry credentials.
 * - A list: only those origins, each echoed back with `Vary: Origin`; any other gets no allow header at all, so the
 *   browser refuses to hand it the answer (and refuses to send a preflighted write).
 *
 * Only a request with an Origin gets CORS headers: same-origin GETs and non-browser clients get none.
 */

/** What a browser may send on a cross-origin request here, besides the CORS-safelisted headers. */
export const ALLOWED_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'idempotency-key',
  'api-version',
  'x-vendor-siteid',
  'traceparent',
  'tracestate',
  // graphql-sse's single connection mode (graphql-server/single-connection-mode.ts)
  'x-graphql-event-stream-token',
  // A client's own request id (docs/operations.md#request-logs), and what Apollo Client sends when configured with
  // client awareness or told to force a preflight: refused in the preflight, each failed every request it was on.
  'x-request-id',
  'apollographql-client-name',
  'apollographql-client-version',
  'apollo-require-preflight',
].join(', ');

/** A header name as HTTP defines it (RFC 9110 §5.1, a token), lower-cased as browsers send them in a preflight. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** A preflight asking for more than this many headers is answered with ours only. */
const MOST_REQUESTED = 64;

/** ALLOWED_HEADERS (and a door's extras), then each well-formed name the preflight asked for that they lack. */
function allowedHeaders(requested: string | null | undefined, extra: string | undefined): string {
  const ours = extra === undefined ? ALLOWED_HEADERS : `${ALLOWED_HEADERS}, ${extra}`;
  if (!requested) return ours;
  const asked = requested.toLowerCase().split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (asked.length > MOST_REQUESTED || !asked.every((name) => HEADER_NAME.test(name))) return ours;
  const known = new Set(ours.split(', '));
  const more = [...new Set(asked)].filter((name) => !known.has(name));
  return more.length === 0 ? ours : `${ours}, ${more.join(', ')}`;
}

/** Response headers a page may read besides the safelisted ones: when to retry, and the id to quote to the operator. */
export const EXPOSED_HEADERS = 'retry-after, x-request-id';

/** Preflights are cached by the browser this long (seconds); Chromium caps it at 7200. */
const MAX_AGE = '600';

export class CorsPolicy {
  /** null: any origin (`*`). */
  private readonly allowed: ReadonlySet<string> | null;

  /** `alsoAllows`: origins a door lets in besides the list (/mcp: a page on this machine, mcp/origin-guard.ts). */
  constructor(
    origins: readonly string[] | null,
    private readonly alsoAllows: (origin: string) => boolean = () => false,
  ) {
    this.allowed = origins === null ? null : new Set(origins);
  }

  /**
   * The CORS headers of an actual answer to a request with this Origin header (none without one), to add to that
   * answer. A fresh object each time: callers may add to it.
   */
  headers(origin: string | null | undefined): Record<string, string> | null {
    if (origin === undefined || origin === null) return null;
    if (this.allowed === null) return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
    if (!this.allowed.has(origin) && !this.alsoAllows(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSED_HEADERS };
  }

  /**
   * Whether a WebSocket upgrade with this Origin may open. CORS does not cover WebSocket (the browser sends Origin
   * but enforces nothing), so the server refuses an unlisted browser origin itself; a request with no Origin is not
   * a browser page's and is let through, as for HTTP.
   */
  allowsSocket(origin: string | null | undefined): boolean {
    return origin === undefined || origin === null || this.allowed === null || this.allowed.has(origin);
  }

  /**
   * The headers of the 204 that answers a preflight (OPTIONS) of a path accepting `methods`. The headers a page may
   * send are ours (ALLOWED_HEADERS, plus a door's `extraHeaders`) and whatever the preflight asks for: no cookie or
   * credential is ever used here, so the header list guards nothing, and refusing an unknown one (Apollo's
   * `x-apollo-operation-name`, Sentry's `sentry-trace` and `baggage`, a client's own) only fails every request of a
   * page that sends it, far from the cause. Only well-formed header names are echoed.
   */
  preflight(origin: string | null | undefined, methods: readonly string[], requested?: string | null, extraHeaders?: string): Record<string, string> {
    const allow = [...new Set([...methods, 'OPTIONS'])].join(', ');
    const headers: Record<string, string> = { allow, 'content-length': '0' };
    const cors = this.headers(origin);
    if (cors) Object.assign(headers, cors);
    if (cors?.['access-control-allow-origin'] !== undefined) {
      headers['access-control-allow-methods'] = allow;
      headers['access-control-allow-headers'] = allowedHeaders(requested, extraHeaders);
      headers['access-control-max-age'] = MAX_AGE;
      headers.vary = cors.vary === undefined ? 'Access-Control-Request-Headers' : `${cors.vary}, Access-Control-Request-Headers`;
    }
    return headers;
  }
}

/**
 * CORS_ORIGINS → the origins, or null when unset. Each entry must be an origin exactly as a browser sends it
 * (`scheme://host[:port]`, no path, no trailing slash), else the line naming it stops start-up: a near miss would
 * otherwise never match and fail only in a browser, far from the cause.
 */
export function parseCorsOrigins(raw: string | undefined): string[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`"${origin}" is not an origin like https://shop.example or http://localhost:5173 (scheme, host and port only, no path or trailing slash).`);
    }
    return origin;
  });
}
