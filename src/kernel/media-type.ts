/**
 * What a JSON path reads (docs/edge.md#no-cross-site-writes). A browser sends form-urlencoded, multipart and
 * text/plain bodies to any site without asking first (a "simple request"), so a page on another site could make a
 * visitor's browser write here; a JSON path therefore reads only a JSON body, and answers anything else 415. A
 * body sent with no content type at all is still read as JSON, for legacy clients, unless a browser sent it from
 * another origin (isUnaskedCrossOriginPost).
 */

/** The browser's simple-request content types: sent cross-site with no preflight (Fetch standard, CORS). */
export const SIMPLE_REQUEST_TYPES: readonly string[] = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** The media type of a content-type header, lower-cased, without parameters; '' for none. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** `application/json` or a `+json` type; true for no content type at all (legacy clients). */
export function isJsonBody(contentType: string | null | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type === '' || type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** A body a JSON path will not read: each door answers it 415 in its own error shape. */
export class UnsupportedMediaTypeError extends Error {
  override readonly name = 'UnsupportedMediaTypeError';
  constructor(
    readonly contentType: string,
    message = `A body sent as ${mediaTypeOf(contentType)} is not read here: send it as JSON with content-type: application/json.`,
  ) {
    super(message);
  }
}

/**
 * A POST a browser sent from another origin without asking first (docs/edge.md#no-cross-site-writes): with no
 * content type, or a simple-request one, no preflight let CORS decide. A browser attaches the Basic credentials it
 * remembers for this host to such a request from another port of the same host (a venue laptop) or a sibling
 * subdomain, so a page there could create a webhook endpoint, rotate a secret or redeliver, with a bodyless POST or a
 * typeless Blob. Sec-Fetch-Site (every current browser) says whether it came from this origin; without it, the
 * Origin is compared with the Host. A legacy client sends neither, and its typeless JSON is read as before.
 */
export function isUnaskedCrossOriginPost(method: string, headers: Readonly<Record<string, string | undefined>>, origin: string | undefined): boolean {
  if (method !== 'POST') return false;
  const type = mediaTypeOf(headers['content-type']);
  if (type !== '' && !SIMPLE_REQUEST_TYPES.includes(type)) return false;
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'cross-site' || fetchSite === 'same-site';
  return origin !== undefined && !isOriginOfHost(origin, headers.host);
}

/**
 * `Origin` names the host the request was sent to, port included (a URL's host omits a scheme's default port, as a
 * Host header does). Behind a proxy that sends its `$host` without the port on another port, a typeless POST from an
 * old browser on our own page would be refused; the pages send JSON with its type.
 */
function isOriginOfHost(origin: string, host: string | undefined): boolean {
  if (!host || !URL.canParse(origin)) return false; // `Origin: null` (a sandboxed frame, a file) is no origin of ours
  return new URL(origin).host === host.toLowerCase();
}

export const UNASKED_CROSS_ORIGIN_POST = 'A POST from another origin is read only as JSON: send it with content-type: application/json, which a browser sends only after asking this server (CORS).';

/**
 * The content coding of a body, lower-cased; null for none or `identity`. The gateway decodes none (a proxy in
 * front may), so a coded body is refused 415 by name (RFC 9110 §15.5.16) rather than parsed as the JSON it is not.
 */
export function contentCodingOf(contentEncoding: string | null | undefined): string | null {
  const coding = contentEncoding?.trim().toLowerCase();
  return coding && coding !== 'identity' ? coding : null;
}

export function unsupportedCoding(contentType: string | undefined, coding: string): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(contentType ?? '', `A body with content-encoding ${coding.slice(0, 40)} is not read here: send it uncompressed.`);
}
