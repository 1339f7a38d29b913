/**
 * The headers every HTML page sends (docs/edge.md#page-headers). The policy allows only this server's own files:
 * no inline script or style (every page's script and style sheet is a file in app/), no other origin, no plugin,
 * no <base>. A cross-site script injection then has nowhere to run from.
 *
 * - `private` pages (/pay holds a payToken in its address, /staff a staff session) cannot be framed
 *   (`frame-ancestors 'none'`, and X-Frame-Options for older browsers), so no other site can overlay them and have
 *   a visitor click through; /pay also sends no referrer, so its address never leaves in a Referer header.
 * - The ordering page and the display may be framed (a kiosk, a venue's dashboard).
 */

export interface PageKind {
  /** /pay and /staff: never framed. */
  private: boolean;
  /** /pay: its address holds the payToken. */
  noReferrer?: boolean;
}

/**
 * `imageOrigin`: PUBLIC_URL's origin, where SleeveOptions' preview images are addressed; the same server,
 * possibly under the name a proxy gives it.
 */
export function pageHeaders(kind: PageKind, imageOrigin: string): Record<string, string> {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${imageOrigin}`,
    // 'self' covers ws: and wss: to this host too (CSP level 3): the pages' graphql-ws.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ];
  if (kind.private) directives.push("frame-ancestors 'none'");
  const headers: Record<string, string> = {
    'content-security-policy': directives.join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': kind.noReferrer ? 'no-referrer' : 'same-origin',
  };
  if (kind.private) headers['x-frame-options'] = 'DENY';
  return headers;
}

/** The site's icon, served at /favicon.ico as SVG (browsers ask for it on every page). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f4fd1"/><rect x="10" y="18" width="44" height="30" rx="6" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="5 4"/><path d="M20 33h24" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>`;
