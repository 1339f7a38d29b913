/**
 * GraphiQL at GET /graphql: yoga's page, whose assets are all inside it (render-graphiql: no CDN, the event's
 * network may have no internet), and its Content-Security-Policy (docs/edge.md#page-headers). The page is one
 * inline script of about 9 MB, so the policy allows exactly that script by its SHA-256 — never 'unsafe-inline' for
 * scripts — and no other origin. Its editor (Monaco) sets inline styles and runs workers from blob: URLs, which
 * the policy allows; styles cannot run code.
 *
 * The page and its hash are computed once per set of options (they never change while the process runs): the
 * bundle is loaded the first time someone opens GraphiQL, not at start.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';

let rendered: { key: string; html: string; headers: Record<string, string>; gzipped?: Promise<Buffer<ArrayBuffer>> } | undefined;

export async function renderGraphiQLPage(options: GraphiQLOptions | undefined): Promise<string> {
  const withIcon = { ...options, favicon: '/favicon.ico' };
  const key = JSON.stringify(withIcon);
  if (rendered?.key !== key) {
    const html = (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(withIcon);
    rendered = { key, html, headers: headersFor(html) };
  }
  return rendered.html;
}

/**
 * The page last rendered, gzipped: about 9 MB becomes about 2.5, over a venue's Wi-Fi the difference between a few
 * seconds and half a minute. Compressed once (off the event loop, about a quarter second), the first time a browser
 * that accepts gzip opens it; null before any page is rendered.
 */
export function gzippedGraphiQL(): Promise<Buffer<ArrayBuffer>> | null {
  if (!rendered) return null;
  rendered.gzipped ??= promisify(gzip)(rendered.html, { level: 6 });
  return rendered.gzipped;
}

/** Whether an Accept-Encoding header accepts gzip (listed, or `*`, with a q-value above 0). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((entry) => {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** The headers of the GraphiQL page last rendered (before any: a policy that allows no inline script). */
export function graphiqlHeaders(): Record<string, string> {
  return rendered?.headers ?? headersFor('');
}

function headersFor(html: string): Record<string, string> {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/gu)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // It runs whatever is typed into it, or prefilled by its address: no other site may overlay it for a click on Run.
    "frame-ancestors 'none'",
  ];
  return { 'content-security-policy': directives.join('; '), 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' };
}
