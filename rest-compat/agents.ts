/**
 * The agents' entry points on the REST door (docs/agents.md): `/openapi.json`, generated once from the route table
 * this door serves (openapi/document.ts); `/docs`, the reference page that renders it, with Redoc's standalone bundle
 * (redocBundlePath); and `/llms.txt`, the index for agents. None is rate limited or does work per request beyond
 * sending bytes built once (the /docs page only adds its nonce).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { holdPhrase } from '../src/orders/order-texts.ts';
import { apiDocsHeaders, newNonce, renderApiDocsPage } from '../src/pages/api-docs-page.ts';
import { buildOpenApiDocument, type RouteRef } from './openapi/document.ts';
import { rawJson, text, type HttpResponse } from './http.ts';
import type { Route } from './routes.ts';

const require = createRequire(import.meta.url);
let redocBundle: Buffer | undefined;

/** Redoc's menu shows Redocly's logo from Redocly's CDN; this server's pages load nothing from another host. */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/** Where the build puts the bundle (scripts/build.mjs), beside this module in dist/. */
const BUNDLED = new URL('./redoc.standalone.js', import.meta.url);

/**
 * The build's copy; from the sources (tsx), redoc's own. redoc is a development dependency only: as a dependency it
 * brought React, styled-components, mobx and a hundred more packages into every frontend project installing the
 * gateway for its tests (a frontend review), for one file.
 */
const redocBundlePath = (): string => (existsSync(BUNDLED) ? fileURLToPath(BUNDLED) : require.resolve('redoc/bundles/redoc.standalone.js'));

/**
 * The one CDN address in the bundle is replaced, once, by the site's own icon (test/browser/api-docs.test.ts fails
 * on any request elsewhere, should a new Redoc add one).
 */
function readRedocBundle(): Buffer {
  redocBundle ??= Buffer.from(readFileSync(redocBundlePath(), 'utf8').replaceAll(REDOCLY_LOGO, '/favicon.ico'));
  return redocBundle;
}

/** The llms.txt index (https://llmstxt.org/): a title, a summary, and sections of links, all absolute. */
export function llmsIndex(publicUrl: string, holdSeconds: number): string {
  return `# Sleeve Gateway

> Order one custom embroidered laptop sleeve at a live event: read the options, create an order (held unpaid for
> ${holdPhrase(holdSeconds)}), pay on the hosted page or with the demo card, and follow its status to the pickup station.

Rules for client agents acting for a user:

1. Before creating an order, confirm size, font, thread, stitchText, name and email with the user. Spell stitchText
   back, because embroidery is permanent. Choose an option for the user only if the user asked.
2. Ask the user how to pay and offer both ways (the payUrl page, or the demo card \`vendor_card\`); never choose for
   the user. Confirm the payment with the user unless the user's own settings allow paying without asking.
3. Every order and pay answer carries \`message\` (relay it to the user) and \`nextAction\` (follow it).
4. Tell the user the hold deadline (\`holdUntilText\`).
5. On an error, relay \`error\`. Retry only when \`retryable\` is true.

## Docs

- [Event information](${publicUrl}/llms-full.txt): agenda, speakers, venue, food and swag, as plain text
- [OpenAPI document](${publicUrl}/openapi.json): every REST path, with request and response schemas, security and errors
- [API reference](${publicUrl}/docs): the OpenAPI document as a readable page

## Tools

- [MCP server](${publicUrl}/mcp): Model Context Protocol over Streamable HTTP (POST JSON-RPC, starting with \`initialize\`; not a page to open). One tool per step of the ordering flow. A client with elicitation has the server ask the user to confirm; one without gets the details and a confirmation code, asks the user, and calls again with that code. Each order is also a resource \`sleeve://orders/{orderNumber}?t={payToken}\`: subscribe to hear of every status change. Staff tools (list, advance, collect, cancel) need \`Authorization: Bearer\` with the staff token
- [GraphQL](${publicUrl}/graphql): the same service as one schema, with subscriptions for hold countdowns and status changes (over WebSocket and SSE)

## Optional

- [Sleeve options](${publicUrl}/api/sleeve-options): what can be ordered right now, as JSON
`;
}

/** `routes`: the table the door serves, read when /openapi.json is first asked for (the table includes these routes). */
export function createAgentsRoutes(publicUrl: string, holdSeconds: number, routes: () => readonly RouteRef[]): Route[] {
  const imageOrigin = new URL(publicUrl).origin;
  let openApi: Uint8Array | undefined;
  const llms = llmsIndex(publicUrl, holdSeconds);

  return [
    {
      method: 'GET',
      path: '/openapi.json',
      async handler(): Promise<HttpResponse> {
        openApi ??= Buffer.from(JSON.stringify(buildOpenApiDocument(routes(), publicUrl)));
        const response = rawJson(200, openApi);
        response.headers['cache-control'] = 'public, max-age=60';
        return response;
      },
    },
    {
      method: 'GET',
      path: '/docs',
      async handler(): Promise<HttpResponse> {
        const nonce = newNonce();
        const response = text(200, renderApiDocsPage(nonce), 'text/html; charset=utf-8');
        Object.assign(response.headers, apiDocsHeaders(nonce, imageOrigin), { 'cache-control': 'no-store' });
        return response;
      },
    },
    {
      method: 'GET',
      path: '/docs/redoc.standalone.js',
      async handler(): Promise<HttpResponse> {
        return {
          status: 200,
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=3600' },
          body: readRedocBundle(),
        };
      },
    },
    { method: 'GET', path: '/llms.txt', handler: async (): Promise<HttpResponse> => text(200, llms) },
  ];
}
