/**
 * The one place a failure becomes a REST response for document 1's paths: the Error body of document 1 §2
 * (`ok`, `code`, `error`, `retryable`, plus `field`, `reason`, the duplicate's hold fields), the status of
 * §7 and `Retry-After` on 429 and 503. Anything unexpected is logged once and answered 500 without detail.
 */
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import { DuplicateOrderError } from '../src/orders/duplicate-order.ts';
import { ClientClosedRequest, CLIENT_CLOSED_REQUEST, json, PayloadTooLargeError, UnsupportedMediaTypeError, type HttpResponse } from './http.ts';
import { orderBody } from './ordering.ts';

export function errorBody(error: DomainError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ok: false,
    code: error.code,
    error: error.message,
    retryable: error.retryable,
  };
  if (error.details.field) body.field = error.details.field;
  if (error.details.reason) body.reason = error.details.reason;
  if (error instanceof DuplicateOrderError) {
    body.duplicate = true;
    if (error.heldView) {
      // Document 1 §2 Error.duplicate: while the existing order is held, its hold fields come along.
      const { ok: _ok, duplicate: _dup, order: _order, ...fields } = orderBody(error.heldView);
      Object.assign(body, fields);
    }
  }
  return body;
}

/** When to try again, in seconds: the error's own, else 1 for a refusal that passes (429, 503); undefined otherwise. */
export function retryAfterOf(error: DomainError): number | undefined {
  return error.details.retryAfter ?? (error.code === 'rate_limited' || error.code === 'unavailable' ? 1 : undefined);
}

export function toRestResponse(error: unknown, logger: Logger): HttpResponse {
  if (error instanceof DomainError) {
    const seconds = retryAfterOf(error);
    return json(error.status, errorBody(error), seconds === undefined ? {} : { 'retry-after': String(seconds) });
  }
  if (error instanceof ClientClosedRequest) return json(CLIENT_CLOSED_REQUEST, { ok: false, code: 'bad_request', error: error.message, retryable: true });
  if (error instanceof PayloadTooLargeError) {
    return json(413, { ok: false, code: 'bad_request', error: 'The request body is too large.', retryable: false });
  }
  if (error instanceof UnsupportedMediaTypeError) {
    // Document 1's codes have none for 415; like 413, it is a bad request (docs/edge.md#no-cross-site-writes).
    return json(415, { ok: false, code: 'bad_request', error: error.message, retryable: false });
  }
  logger.error('unexpected error on a REST path', { error });
  return json(500, { ok: false, code: 'internal', error: 'Something went wrong on our side. Please try again.', retryable: true });
}
