/**
 * The HTTP pieces of the GraphQL door: the few request headers it reads (in one pass over node's `rawHeaders`),
 * an answer written in one go, the door's own 413, and yoga's choice between its two JSON media types.
 */
import type { ServerResponse } from 'node:http';

/**
 * The headers the door reads, from node's `rawHeaders` in one pass: node builds `req.headers` lazily, and building
 * it costs about a fifth of a small request (src/http/node-request.ts). Duplicates are merged as node merges them:
 * the first value for content-length, content-type and authorization, joined with ", " for accept and origin.
 */
export class RequestHeads {
  contentLength: string | undefined = undefined;
  contentType: string | undefined = undefined;
  accept: string | undefined = undefined;
  authorization: string | undefined = undefined;
  origin: string | undefined = undefined;
  /** x-graphql-event-stream-token: a request of graphql-sse's single connection mode (single-connection-mode.ts). */
  streamToken = false;
  /** access-control-request-method or -headers: yoga's CORS answers those, not the fast path. */
  corsRequest = false;

  constructor(raw: readonly string[]) {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      // By length first: most headers are then never lower-cased.
      switch (name.length) {
        case 6: {
          const lower = name.toLowerCase();
          if (lower === 'accept') this.accept = this.accept === undefined ? raw[i + 1] : `${this.accept}, ${raw[i + 1]}`;
          else if (lower === 'origin') this.origin = this.origin === undefined ? raw[i + 1] : `${this.origin}, ${raw[i + 1]}`;
          break;
        }
        case 12:
          if (this.contentType === undefined && name.toLowerCase() === 'content-type') this.contentType = raw[i + 1];
          break;
        case 13:
          if (this.authorization === undefined && name.toLowerCase() === 'authorization') this.authorization = raw[i + 1];
          break;
        case 14:
          if (this.contentLength === undefined && name.toLowerCase() === 'content-length') this.contentLength = raw[i + 1];
          break;
        case 28:
          if (name.toLowerCase() === 'x-graphql-event-stream-token') this.streamToken = true;
          break;
        case 29:
        case 30:
          if (name.toLowerCase().startsWith('access-control-request-')) this.corsRequest = true;
          break;
      }
    }
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function send(res: ServerResponse, answer: Answer): void {
  // An explicit length: without it node falls back to chunked encoding, several writes per response.
  answer.headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

/** The door's answer to a body over MAX_BODY_BYTES, before yoga reads any of it. */
export function tooLarge(accept: string | null | undefined): Answer {
  return {
    status: 413,
    headers: { 'content-type': CONTENT_TYPE[jsonMediaType(accept) ?? JSON_TYPE] },
    body: JSON.stringify({ errors: [{ message: 'Request body is too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }),
  };
}

/** An SSE stream past its address's bound (address-budget.ts): 429, told when to come back. */
export function tooManyConnections(message: string, retryAfterSeconds: number): Answer {
  return {
    status: 429,
    headers: { 'content-type': CONTENT_TYPE[JSON_TYPE], 'retry-after': String(retryAfterSeconds) },
    body: JSON.stringify({ errors: [{ message, extensions: { code: 'TOO_MANY_OPERATIONS' } }] }),
  };
}

export const JSON_TYPE = 'application/json';
export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
export type JsonMediaType = typeof JSON_TYPE | typeof GRAPHQL_RESPONSE_TYPE;
export const CONTENT_TYPE: Record<JsonMediaType, string> = {
  [JSON_TYPE]: `${JSON_TYPE}; charset=utf-8`,
  [GRAPHQL_RESPONSE_TYPE]: `${GRAPHQL_RESPONSE_TYPE}; charset=utf-8`,
};

/**
 * The JSON media type of the answer to a request with this Accept header, or undefined when yoga answers 406.
 * yoga's negotiation (its result processor): the first acceptable entry (a charset other than utf-8 is not) that
 * matches either JSON type decides. `application/json` named as such gives application/json; anything else that
 * matches — `application/graphql-response+json`, and, through useJsonMediaType (yoga-server.ts), a wildcard or no
 * Accept header at all — gives application/graphql-response+json. Memoised: clients send a handful of values.
 */
export function jsonMediaType(accept: string | null | undefined): JsonMediaType | undefined {
  const key = accept ?? '';
  let type = negotiated.get(key);
  if (type === undefined) {
    type = negotiate(key);
    if (negotiated.size >= 100) negotiated.clear();
    negotiated.set(key, type);
  }
  return type ?? undefined;
}

const negotiated = new Map<string, JsonMediaType | null>();

function negotiate(accept: string): JsonMediaType | null {
  for (const entry of (accept || '*/*').replace(/\s/gu, '').toLowerCase().split(',')) {
    const [mediaType = '', ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    if (mediaType === JSON_TYPE) return JSON_TYPE;
    if (matches(mediaType, JSON_TYPE) || matches(mediaType, GRAPHQL_RESPONSE_TYPE)) return GRAPHQL_RESPONSE_TYPE;
  }
  return null;
}

/** yoga's match of an accepted media type (`*` for its type or subtype) against a concrete one. */
function matches(accepted: string, concrete: string): boolean {
  const [acceptedType, acceptedSubtype] = accepted.split('/');
  const [type, subtype] = concrete.split('/');
  return (acceptedType === '*' || acceptedType === type) && (acceptedSubtype === '*' || acceptedSubtype === subtype);
}
