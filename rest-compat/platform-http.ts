/**
 * The REST shape of document 3's operations (docs/platform.md#error-bodies), shared by payments, tokenization, the decision
 * platform and the evidence operations: HTTP basic auth `siteId:apiKey`, and the two error bodies —
 * `{ status: "error", message, errors? }` for risk, merchant and payment operations, `{ message }` for tokenization.
 */
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import { VaultDamagedError, VaultKeyError } from '../src/payments/vault-crypto.ts';
import type { Site, SiteService } from '../src/sites/site-service.ts';
import { ClientClosedRequest, CLIENT_CLOSED_REQUEST, json, PayloadTooLargeError, UnsupportedMediaTypeError, type HttpRequest, type HttpResponse } from './http.ts';
import type { Handler } from './routes.ts';

export type ErrorStyle = 'platform' | 'tokenization';

/** Maps a failure to the documented body of its style. The status comes from the DomainError's code. */
export function platformErrorResponse(error: unknown, style: ErrorStyle, logger: Logger): HttpResponse {
  if (error instanceof ClientClosedRequest) return styled(CLIENT_CLOSED_REQUEST, error.message, style);
  if (error instanceof PayloadTooLargeError) return styled(413, 'The request body is too large.', style);
  if (error instanceof UnsupportedMediaTypeError) return styled(415, error.message, style); // docs/edge.md#no-cross-site-writes
  if (error instanceof VaultKeyError) {
    // Sealed under a key this instance was not given: during a rolling VAULT_KEY rotation another instance opens it,
    // so the client is told to retry (503), not that the gateway broke; the operator still gets an error line.
    logger.error('a sealed value is under a vault key this instance lacks (docs/operations.md#rotating-vault_key)', { keyId: error.keyId });
    const response = styled(503, 'This instance cannot open the stored card data right now. Please try again.', style);
    response.headers['retry-after'] = '1';
    return response;
  }
  if (!(error instanceof DomainError)) {
    // A value altered since it was sealed: the key is here, so no retry or instance opens it. The operator is told
    // which key's value to restore rather than handed GCM's "unable to authenticate data".
    if (error instanceof VaultDamagedError) logger.error('a sealed value does not authenticate under the vault key that sealed it: altered or damaged since; restore its row from a backup', { keyId: error.keyId });
    else logger.error('unexpected error on a platform path', { error });
    return styled(500, 'Something went wrong on our side. Please try again.', style);
  }
  const response = styled(error.status, error.message, style, fieldErrors(error));
  if (error.status === 401) response.headers['www-authenticate'] = 'Basic realm="vendor", charset="UTF-8"';
  // A retryable refusal says when to come back, as document 1's paths do (429 and 503).
  if (error.details.retryAfter !== undefined) response.headers['retry-after'] = String(error.details.retryAfter);
  else if (error.status === 429 || error.status === 503) response.headers['retry-after'] = '1';
  return response;
}

/**
 * CONTRACT §3: a platform 400 lists its fields. A refusal raised before any field was read (a body that is not JSON,
 * not an object, empty) names what it found wrong — the `field` it carries, else the body itself — rather than
 * answering an empty list a client cannot show beside any input.
 */
function fieldErrors(error: DomainError): Array<{ field: string; message: string }> | undefined {
  const listed = error.details.errors;
  if (error.status !== 400 || (listed && listed.length > 0)) return listed;
  return [{ field: typeof error.details.field === 'string' ? error.details.field : 'body', message: error.message }];
}

function styled(status: number, message: string, style: ErrorStyle, errors?: Array<{ field: string; message: string }>): HttpResponse {
  if (style === 'tokenization') return json(status, { message });
  const body: Record<string, unknown> = { status: 'error', message };
  // A 422 that names its fields lists them too (docs/merchant-webhooks.md#endpoints); the others keep their shape.
  if (status === 400 || (status === 422 && errors?.length)) body.errors = errors ?? [];
  return json(status, body);
}

/** Wraps a handler so that every failure answers in `style` instead of document 1's Error body. */
export function inStyle(style: ErrorStyle, logger: Logger, handler: Handler): Handler {
  return async (request, ...params) => {
    try {
      return await handler(request, ...params);
    } catch (error) {
      return platformErrorResponse(error, style, logger);
    }
  };
}

/** `Authorization: Basic base64(siteId:apiKey)` → the site, or a 401 DomainError. */
export async function requireSite(request: HttpRequest, sites: SiteService): Promise<Site> {
  const credentials = parseBasicAuth(request.headers.authorization);
  const site = credentials ? await sites.authenticate(credentials.user, credentials.password) : null;
  if (!site) throw new DomainError('unauthorized', 'No valid API key was provided: use HTTP basic auth with your site id and API key.');
  return site;
}

export function parseBasicAuth(header: string | undefined): { user: string; password: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/iu.exec(header) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
