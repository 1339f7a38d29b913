/** The web pages: the hosted pay page at payUrl, the pickup display, and the client library they load. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appAsset } from '../src/pages/app-assets.ts';
import { renderDisplayPage } from '../src/pages/display-page.ts';
import { renderOrderPage } from '../src/pages/order-page.ts';
import { FAVICON_SVG, pageHeaders, type PageKind } from '../src/pages/page-headers.ts';
import { renderPayPage } from '../src/pages/pay-page.ts';
import { renderPortalPage } from '../src/pages/portal-page.ts';
import { renderStaffConsole } from '../src/pages/staff-console.ts';
import { text, type HttpRequest, type HttpResponse } from './http.ts';
import { notFound } from './routes.ts';

const require = createRequire(import.meta.url);
let graphqlWsClient: string | undefined;
const displayPage = renderDisplayPage();
const orderPage = renderOrderPage();
const staffConsole = renderStaffConsole();
const portalPage = renderPortalPage();

/** An HTML page with its security headers (docs/edge.md#page-headers); `imageOrigin` is PUBLIC_URL's origin. */
function html(body: string, kind: PageKind, imageOrigin: string): HttpResponse {
  const response = text(200, body, 'text/html; charset=utf-8');
  Object.assign(response.headers, pageHeaders(kind, imageOrigin));
  return response;
}

/** The pages, for a server whose PUBLIC_URL is `publicUrl` (the preview images are addressed there). */
export function createPages(publicUrl: string) {
  const imageOrigin = new URL(publicUrl).origin;
  return {
    /** The ordering page for attendees: choose, confirm the spelled-back text, pay, follow the order. */
    async orderPage(): Promise<HttpResponse> {
      return html(orderPage, { private: false }, imageOrigin);
    },

    /** The staff console: the live queue, pickup check, cancel, options, event information, notifications. */
    async staffConsole(): Promise<HttpResponse> {
      return html(staffConsole, { private: true }, imageOrigin);
    },

    /** The merchant portal (issue 19): a site's webhook endpoints and deliveries; holds the site's API key. */
    async portal(): Promise<HttpResponse> {
      const response = html(portalPage, { private: true }, imageOrigin);
      response.headers['cache-control'] = 'no-store';
      return response;
    },

    /** The ordering page's and staff console's modules and style sheets (src/pages/app/). */
    async appAsset(request: HttpRequest, name: string): Promise<HttpResponse> {
      const file = appAsset(name);
      if (!file) return notFound(request);
      const response = text(200, file.body, file.contentType);
      response.headers['x-content-type-options'] = 'nosniff';
      // Short: a redeploy during the event reaches open pages at their next load.
      response.headers['cache-control'] = 'public, max-age=60';
      return response;
    },

    async display(): Promise<HttpResponse> {
      return html(displayPage, { private: false }, imageOrigin);
    },

    /** The icon browsers ask for on every page: an SVG (every current browser takes one at /favicon.ico). */
    async favicon(): Promise<HttpResponse> {
      const response = text(200, FAVICON_SVG, 'image/svg+xml');
      response.headers['cache-control'] = 'public, max-age=86400';
      response.headers['x-content-type-options'] = 'nosniff';
      return response;
    },

    /** graphql-ws's browser build, from node_modules: no CDN, no build step. */
    async graphqlWs(): Promise<HttpResponse> {
      // The package does not export its umd/ folder; find it beside the resolved entry (dist/…).
      const root = require.resolve('graphql-ws').replace(/[\\/]dist[\\/].*$/u, '');
      graphqlWsClient ??= readFileSync(join(root, 'umd', 'graphql-ws.min.js'), 'utf8');
      const response = text(200, graphqlWsClient, 'text/javascript; charset=utf-8');
      response.headers['x-content-type-options'] = 'nosniff';
      response.headers['cache-control'] = 'public, max-age=3600';
      return response;
    },

    async pay(request: HttpRequest, orderNumber: string): Promise<HttpResponse> {
      // Document 1 §4: order numbers are digits. Anything else has no page.
      if (!/^[0-9]+$/u.test(orderNumber)) return notFound(request);
      // The page carries a payToken in its address: keep it out of caches and referrers, and out of frames.
      const response = html(renderPayPage(orderNumber), { private: true, noReferrer: true }, imageOrigin);
      response.headers['cache-control'] = 'no-store';
      return response;
    },
  };
}
