/**
 * The small request/response shape the REST handlers see, and the helpers that build responses. Two adapters
 * (node-adapter.ts for node:http, fetch-adapter.ts for Fetch) translate to and from it, so the handlers never
 * depend on a transport.
 */
import { DomainError } from '../src/kernel/errors.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonTextTooDeep } from '../src/kernel/json-depth.ts';
import { contentCodingOf, isJsonBody, unsupportedCoding, UnsupportedMediaTypeError } from '../src/kernel/media-type.ts';
import { forbiddenCharacterAt, forbiddenCharacterMessage, mayHoldForbiddenCharacter } from '../src/kernel/unicode-text.ts';

export interface HttpRequest {
  method: string;
  /** Path without the query string, e.g. `/api/orders/1001`. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The Origin header (docs/edge.md#cors); the node adapter reads it without building `headers`. */
  readonly origin: string | undefined;
  clientAddress: string;
  /** The body as text; rejects with PayloadTooLargeError past the configured limit. */
  text(): Promise<string>;
  /**
   * The body as the exact bytes sent, for binary content such as evidence files (docs/notifications.md#evidence-files);
   * same limit. A body is read once, as text or as bytes.
   */
  bytes(): Promise<Uint8Array<ArrayBuffer>>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export { ClientClosedRequest, CLIENT_CLOSED_REQUEST, PayloadTooLargeError } from '../src/http/node-request.ts';
export { UnsupportedMediaTypeError } from '../src/kernel/media-type.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

/** A response whose JSON bytes were built once and are reused (hot, rarely changing bodies). */
export function rawJson(status: number, bytes: Uint8Array): HttpResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: bytes };
}

export function text(status: number, body: string, contentType = 'text/plain; charset=utf-8'): HttpResponse {
  return { status, headers: { 'content-type': contentType }, body };
}

/**
 * The JSON body of a counted request (docs/edge.md#rate-limits-at-a-venue): `count` is called with the subject the
 * body names (`subjectOf` its fields, which are `{}` when it is no object), or with none when the body is not JSON
 * at all, which still counts against the client address before its 400 or 415.
 */
export async function readCountedJson(
  request: HttpRequest,
  count: (subject?: string) => Promise<void>,
  subjectOf: (fields: Record<string, unknown>) => string | undefined,
): Promise<unknown> {
  let body: unknown;
  try {
    body = await readJson(request);
  } catch (error) {
    await count();
    throw error;
  }
  await count(subjectOf(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}));
  return body;
}

/**
 * Parses a JSON body. Not JSON at all is a 400 (docs/ordering.md#400-or-422); the shape is checked by the domain.
 * A body sent as another type (a browser's cross-site form or text/plain) is refused unread, 415, before anything
 * runs (docs/edge.md#no-cross-site-writes); no content type at all is read as JSON, for legacy clients.
 */
export async function readJson(request: HttpRequest): Promise<unknown> {
  const contentType = request.headers['content-type'];
  if (!isJsonBody(contentType)) throw new UnsupportedMediaTypeError(contentType!);
  const coding = contentCodingOf(request.headers['content-encoding']);
  if (coding) throw unsupportedCoding(contentType, coding);
  const raw = await request.text();
  if (raw.trim() === '') throw new DomainError('bad_request', 'The request body is empty; send a JSON object.');
  // Deeper than 64 levels: a 400 in the caller's own error shape, never a 500 (docs/edge.md#bounds). Every REST
  // family (document 1, platform, tokenization, evidence) reads its body here and maps the DomainError its way.
  if (jsonTextTooDeep(raw)) throw new DomainError('bad_request', JSON_TOO_DEEP_MESSAGE, { field: 'body', errors: [{ field: 'body', message: JSON_TOO_DEEP_MESSAGE }] });
  let body: unknown;
  try {
    body = JSON.parse(raw) as unknown;
  } catch {
    throw new DomainError('bad_request', 'The request body is not valid JSON.');
  }
  const broken = mayHoldForbiddenCharacter(raw) ? forbiddenCharacterAt(body) : null;
  if (broken !== null) {
    const message = forbiddenCharacterMessage(broken.at, broken.character);
    throw new DomainError('bad_request', message, { field: broken.at, errors: [{ field: broken.at, message }] });
  }
  return body;
}
