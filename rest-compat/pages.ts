/** The web pages: the hosted pay page at payUrl, the pickup display, and the client library they load. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appAsset } from '../src/pages/app-assets.ts';
import { renderDisplayPage } from '../src/pages/display-page.ts';
import { renderOrderPage } from '../src/pages/order-page.ts';
import { renderPayPage } from '../src/pages/pay-page.ts';
import { renderStaffConsole } from '../src/pages/staff-console.ts';
import { text, type HttpRequest, type HttpResponse } from './http.ts';
import { notFound } from './routes.ts';

const require = createRequire(import.meta.url);
let graphqlWsClient: string | undefined;
const displayPage = renderDisplayPage();
const orderPage = renderOrderPage();
const staffConsole = renderStaffConsole();

export const pages = {
  /** The ordering page for attendees: choose, confirm the spelled-back text, pay, follow the order. */
  async orderPage(): Promise<HttpResponse> {
    return text(200, orderPage, 'text/html; charset=utf-8');
  },

  /** The staff console: the live queue, pickup check, cancel, options, event information, notifications. */
  async staffConsole(): Promise<HttpResponse> {
    return text(200, staffConsole, 'text/html; charset=utf-8');
  },

  /** The ordering page's and staff console's modules and style sheets (src/pages/app/). */
  async appAsset(request: HttpRequest, name: string): Promise<HttpResponse> {
    const file = appAsset(name);
    if (!file) return notFound(request);
    const response = text(200, file.body, file.contentType);
    // Short: a redeploy during the event reaches open pages at their next load.
    response.headers['cache-control'] = 'public, max-age=60';
    return response;
  },

  async display(): Promise<HttpResponse> {
    return text(200, displayPage, 'text/html; charset=utf-8');
  },

  /** graphql-ws's browser build, from node_modules: no CDN, no build step. */
  async graphqlWs(): Promise<HttpResponse> {
    // The package does not export its umd/ folder; find it beside the resolved entry (dist/…).
    const root = require.resolve('graphql-ws').replace(/[\\/]dist[\\/].*$/u, '');
    graphqlWsClient ??= readFileSync(join(root, 'umd', 'graphql-ws.min.js'), 'utf8');
    const response = text(200, graphqlWsClient, 'text/javascript; charset=utf-8');
    response.headers['cache-control'] = 'public, max-age=3600';
    return response;
  },

  async pay(request: HttpRequest, orderNumber: string): Promise<HttpResponse> {
    // Document 1 §4: order numbers are digits. Anything else has no page.
    if (!/^[0-9]+$/u.test(orderNumber)) return notFound(request);
    const response = text(200, renderPayPage(orderNumber), 'text/html; charset=utf-8');
    // The page carries a payToken in its address: keep it out of caches and referrers.
    response.headers['cache-control'] = 'no-store';
    response.headers['referrer-policy'] = 'no-referrer';
    return response;
  },
};
