/**
 * /docs: the API reference, /openapi.json rendered by Redoc's standalone bundle, served by this server from its own
 * node_modules (no CDN). app/api-docs.js starts it on #redoc with the nonce, so the page has no inline script.
 *
 * Its policy is the pages' (docs/edge.md#page-headers) with what Redoc needs and nothing more:
 * - its style sheets are `<style>` elements it writes at run time (styled-components): they carry a nonce fresh on
 *   every answer, which Redoc's `nonce` option passes to them, so no `'unsafe-inline'` is needed (the nonce rides
 *   on #redoc, whose `nonce` property app/api-docs.js reads: browsers hide the attribute itself from scripts);
 * - its search index runs in a worker made from a `blob:` URL (`worker-src blob:`).
 */
import { randomBytes } from 'node:crypto';
import { pageHeaders } from './page-headers.ts';

/** A nonce per answer: 128 random bits, base64 (CSP level 2). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function renderApiDocsPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sleeve Gateway API reference</title>
<link rel="icon" href="/favicon.ico">
</head>
<body>
<div id="redoc" data-spec="/openapi.json" nonce="${nonce}"></div>
<script src="/assets/app/api-docs.js"></script>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;
}

/** The pages' headers, with the style and worker sources Redoc needs. */
export function apiDocsHeaders(nonce: string, imageOrigin: string): Record<string, string> {
  const headers = pageHeaders({ private: false }, imageOrigin);
  headers['content-security-policy'] = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data: ${imageOrigin}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return headers;
}
