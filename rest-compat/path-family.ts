/**
 * Which error shape a path answers in when no handler runs — an unknown path (404) or a wrong method (405) —
 * by the family the path belongs to (docs/edge.md#bounds, docs/platform.md#error-bodies): document 1's Error body
 * on its paths, document 3's `{ status: "error", message }` on the platform paths (payments, merchants, decisions,
 * claims, webhook endpoints, the processor's challenge), `{ message }` on the tokenization paths. A client of one family then reads every answer the same way.
 */
import { UNASKED_CROSS_ORIGIN_POST } from '../src/kernel/media-type.ts';
import { json, type HttpResponse } from './http.ts';

export type PathFamily = 'ordering' | 'platform' | 'tokenization';

/**
 * By prefix, so an unknown path under a family's prefix (a typo, an operation not offered) answers in its shape; in
 * any case, since a typo in case (`/Merchants`) is as likely, and a platform client reads no other shape.
 */
export function familyOf(rawPath: string): PathFamily {
  const path = rawPath.toLowerCase();
  // The merchants' webhook endpoints answer in the platform shape (docs/merchant-webhooks.md): under /v1/, but not
  // tokenization's. Before, an unknown path or method there answered `{message}` alone, unlike every other answer there.
  if (path === '/v1/webhooks' || path.startsWith('/v1/webhooks/')) return 'platform';
  if (path.startsWith('/v1/')) return 'tokenization';
  if (path === '/api/payments' || path.startsWith('/api/payments/')) return 'platform';
  if (path === '/merchants' || path.startsWith('/merchants/') || path.startsWith('/v2/')) return 'platform';
  // The processor's verification challenge (document 2) is the platform's too; it answered in document 1's shape.
  if (path.startsWith('/webhooks/processor/')) return 'platform';
  return 'ordering';
}

function inFamily(path: string, status: number, code: string, message: string, headers: Record<string, string> = {}): HttpResponse {
  switch (familyOf(path)) {
    case 'tokenization':
      return json(status, { message }, headers);
    case 'platform':
      return json(status, { status: 'error', message }, headers);
    default:
      return json(status, { ok: false, code, error: message, retryable: false }, headers);
  }
}

export function notFoundResponse(method: string, path: string): HttpResponse {
  return inFamily(path, 404, 'not_found', `There is nothing at ${method} ${path}.`);
}

/** 405 with `Allow` (RFC 9110 §15.5.6). Document 1 has no code of its own for it: `bad_request`, as before. */
export function methodNotAllowedResponse(method: string, path: string, allow: string): HttpResponse {
  return inFamily(path, 405, 'bad_request', `${method} is not allowed on ${path}. Use ${allow}.`, { allow });
}

/** 415 to a POST a browser sent from another origin without a preflight (docs/edge.md#no-cross-site-writes), before any route runs. */
export function unaskedCrossOriginPostResponse(path: string): HttpResponse {
  return inFamily(path, 415, 'bad_request', UNASKED_CROSS_ORIGIN_POST);
}
