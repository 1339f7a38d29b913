/**
 * Document 3 §2 "Common headers" and §9 versioning, with docs/platform.md#credentials: `x-vendor-siteid` must be present
 * and name the site of the basic-auth credentials (401), `api-version` must be present and supported (400), and a
 * body must be sent as `application/json`: 400 without a content type (document 3 requires the header), 415 with
 * another one (docs/edge.md#no-cross-site-writes: a browser's simple request must not reach a platform operation).
 */
import { DomainError } from '../kernel/errors.ts';
import { UnsupportedMediaTypeError } from '../kernel/media-type.ts';

export const SUPPORTED_API_VERSIONS: readonly string[] = ['10.3'];

export interface PlatformHeaders {
  siteIdHeader: string | undefined;
  apiVersion: string | undefined;
  contentType: string | undefined;
}

/** Checks the headers after basic auth found `authenticatedSiteId`; `hasBody` adds the content-type rule. */
export function checkPlatformHeaders(headers: PlatformHeaders, authenticatedSiteId: string, hasBody: boolean): void {
  if (!headers.siteIdHeader) {
    throw new DomainError('unauthorized', 'The x-vendor-siteid header is required: send your site id.');
  }
  if (headers.siteIdHeader !== authenticatedSiteId) {
    throw new DomainError('unauthorized', 'x-vendor-siteid does not match the site of the credentials.');
  }
  if (!headers.apiVersion) throw headerError('api-version', 'The api-version header is required; the supported version is 10.3.');
  if (!SUPPORTED_API_VERSIONS.includes(headers.apiVersion.trim())) {
    throw headerError('api-version', `api-version ${headers.apiVersion} is not supported; use one of ${SUPPORTED_API_VERSIONS.join(', ')}.`);
  }
  if (hasBody && headers.contentType && !isJson(headers.contentType)) throw new UnsupportedMediaTypeError(headers.contentType);
  if (hasBody && !isJson(headers.contentType)) {
    throw headerError('content-type', 'Send the body as JSON with content-type: application/json.');
  }
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function headerError(field: string, message: string): DomainError {
  return new DomainError('bad_request', message, { field, errors: [{ field, message }] });
}
