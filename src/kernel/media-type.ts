/**
 * What a JSON path reads (docs/edge.md#no-cross-site-writes). A browser sends form-urlencoded, multipart and
 * text/plain bodies to any site without asking first (a "simple request"), so a page on another site could make a
 * visitor's browser write here; a JSON path therefore reads only a JSON body, and answers anything else 415. A
 * body sent with no content type at all (no browser does that cross-site) is still read as JSON, for legacy clients.
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
