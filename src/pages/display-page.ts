/**
 * The pickup display at /display: a big screen at the pickup station showing the orders ready for pickup
 * (large order numbers, first name and last initial). It follows the public `pickupBoard` subscription over
 * graphql-ws and reconnects by itself, with jittered backoff, after the server restarts; every (re)connection
 * starts with the whole current board, so it is right again within a second of reconnecting.
 * Every ready order is shown at any count: the cards shrink to a floor readable across a room, then the board pages
 * through the rest by itself (app/display.js; `?pageSeconds=` sets how long a page stays).
 * Until its first board comes the page says it is connecting, never "No orders are ready yet" (it does not know).
 * No CDN: the graphql-ws client is served by this server from node_modules. Style and script are files
 * (app/display.css, app/display.js): the page's Content-Security-Policy allows nothing inline (docs/edge.md#page-headers).
 */
import { APP_ASSETS, FAVICON_LINK } from './page-shell.ts';

export function renderDisplayPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Ready for pickup</title>${FAVICON_LINK}<link rel="stylesheet" href="${APP_ASSETS}/display.css"></head>
<body>
<header><h1>Ready for pickup</h1><span class="meta"><span id="count"></span><span id="state" role="status" aria-live="polite">Connecting…</span></span></header>
<main><ul id="board" aria-label="Orders ready for pickup"></ul>
<p id="empty">The ready orders appear here as soon as this screen is connected.</p></main>
<footer><span>Bring your order number and give the first and last name on the order.</span><span id="page"></span></footer>
<p id="announce" class="sr-only" aria-live="polite"></p>
<script src="/assets/graphql-ws.js"></script>
<script type="module" src="${APP_ASSETS}/display.js"></script>
</body></html>`;
}
