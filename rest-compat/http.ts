/**
 * The small request/response shape the REST handlers see, and the helpers that build responses. Two adapters
 * (node-adapter.ts for node:http, fetch-adapter.ts for Fetch) translate to and from it, so the handlers never
 * depend on a transport.
 */
import { DomainError } from '../src/kernel/errors.ts';

export interface HttpRequest {
  method: string;
  /** Path without the query string, e.g. `/api/orders/1001`. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | undefined>>;
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

export { PayloadTooLargeError } from '../src/http/node-request.ts';

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

/** Parses a JSON body. Not JSON at all is a 400 (docs/ordering.md#400-or-422); the shape is checked by the domain. */
export async function readJson(request: HttpRequest): Promise<unknown> {
  const raw = await request.text();
  if (raw.trim() === '') throw new DomainError('bad_request', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new DomainError('bad_request', 'The request body is not valid JSON.');
  }
}
