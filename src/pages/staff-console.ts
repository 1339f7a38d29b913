/**
 * The staff console at `/staff` (issue 8): sign in with the admin token (kept in sessionStorage only), the live
 * queue of orders by status (orderEvents), one click to move an order forward, the pickup check, cancel with a
 * reason, the sleeve options and event information, and the notification deliveries. Static markup; the script
 * (app/staff-app.js and its modules) talks only GraphQL, with `Authorization: Bearer <token>`.
 */
import { pageHead, pageScripts } from './page-shell.ts';

const SIGN_IN = `
<section id="sign-in" class="card narrow" aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Staff console</h1>
<form id="sign-in-form" novalidate>
<div class="field"><label for="token">Admin token</label>
<input id="token" type="password" autocomplete="current-password" required aria-describedby="token-help token-error">
<p id="token-help" class="hint">Kept in this browser tab only: closing the tab signs you out.</p>
<p id="token-error" class="error" role="alert"></p></div>
<button type="submit">Sign in</button>
</form></section>`;

const QUEUE = `
<section id="queue" aria-labelledby="queue-title">
<div class="section-head"><h1 id="queue-title" tabindex="-1">Orders</h1>
<div class="head-tools"><form id="find-form" role="search" class="inline-form"><label for="find">Order number</label>
<input id="find" inputmode="numeric" autocomplete="off"><button type="submit" class="secondary">Find</button></form>
<label class="check" title="Say other desks' and the hold's changes to the queue with a screen reader">
<input type="checkbox" id="announce-changes" checked> Announce changes</label></div></div>
<p id="queue-error" class="error" role="alert"></p>
<p id="queue-moved" class="notice" role="status"></p>
<div class="columns" id="columns"></div>
<details class="card" id="done"><summary>Collected and cancelled (<span id="done-count">0</span>)</summary><ul class="orders" id="done-list"></ul></details>
</section>`;

const OPTIONS = `
<section id="options" hidden aria-labelledby="options-title">
<h1 id="options-title" tabindex="-1">Sleeve options and event information</h1>
<form id="options-form" class="card" novalidate>
<h2>Sleeve options <span class="hint" id="options-version"></span></h2>
<p class="hint">Publishing replaces the whole set. Orders already made keep theirs; open ordering pages change at once.</p>
<div class="grid3">
<div class="field"><label for="opt-sizes">Sizes, one per line</label><textarea id="opt-sizes" rows="7"></textarea></div>
<div class="field"><label for="opt-fonts">Fonts, one per line</label><textarea id="opt-fonts" rows="7"></textarea></div>
<div class="field"><label for="opt-threads">Threads, one per line: name and colour</label>
<textarea id="opt-threads" rows="7" aria-describedby="opt-threads-help"></textarea>
<p id="opt-threads-help" class="hint">Like “Gold #c9a227”; the colour draws the preview.</p></div>
</div>
<div class="field short"><label for="opt-charlimit">Stitch text limit (1 to 60 characters)</label>
<input id="opt-charlimit" type="number" min="1" max="60" required aria-describedby="options-result"></div>
<div class="actions"><button type="submit">Publish options</button></div>
<p id="options-result" role="status" aria-live="polite"></p>
</form>
<form id="info-form" class="card" novalidate>
<h2>Event information</h2>
<div class="field"><label for="info">Agenda, speakers, venue, food and swag (plain text; also served at /llms-full.txt)</label>
<textarea id="info" rows="12"></textarea></div>
<div class="actions"><button type="submit">Save event information</button></div>
<p id="info-result" role="status" aria-live="polite"></p>
</form></section>`;

const NOTIFICATIONS = `
<section id="notifications" hidden aria-labelledby="notifications-title">
<div class="section-head"><h1 id="notifications-title" tabindex="-1">Notification deliveries</h1>
<button type="button" class="secondary" id="notifications-refresh">Refresh</button></div>
<p id="notifications-state" role="status" aria-live="polite"></p>
<div class="table-wrap" id="notifications-table"></div>
<div class="actions"><button type="button" class="secondary" id="notifications-more" hidden>Load more</button></div>
</section>`;

const DIALOGS = `
<dialog id="pickup-dialog" aria-labelledby="pickup-title">
<form id="pickup-form" novalidate>
<h2 id="pickup-title">Hand over order <span id="pickup-number"></span></h2>
<p class="hint">Ask the collector for their first and last name and type what they say.</p>
<div class="field"><label for="collector">Collector’s first and last name</label>
<input id="collector" autocomplete="off" aria-describedby="collector-match pickup-error"></div>
<p id="collector-match" class="match"></p>
<p id="collector-said" class="sr-only" aria-live="polite"></p>
<p id="pickup-error" class="error" role="alert"></p>
<div class="actions"><button type="submit">Mark collected</button>
<button type="button" class="secondary" data-close>Close</button></div>
</form></dialog>
<dialog id="cancel-dialog" aria-labelledby="cancel-title">
<form id="cancel-form" novalidate>
<h2 id="cancel-title">Cancel order <span id="cancel-number"></span></h2>
<div class="field"><label for="cancel-reason">Reason (for staff only: the attendee is told that staff cancelled it, not why; 1 to 300 characters)</label>
<textarea id="cancel-reason" rows="3" maxlength="300" required aria-describedby="cancel-error"></textarea></div>
<p id="cancel-error" class="error" role="alert"></p>
<div class="actions"><button type="submit" class="danger">Cancel the order</button>
<button type="button" class="secondary" data-close>Keep the order</button></div>
</form></dialog>`;

export function renderStaffConsole(): string {
  return `<!doctype html>
<html lang="en">${pageHead('Sleeve staff console', ['base.css', 'staff.css'])}
<body>
<header class="bar"><div class="wrap wide"><a class="brand" href="/staff">Sleeve staff</a>
<nav aria-label="Console sections" id="nav" hidden><a href="#/queue">Queue</a><a href="#/options">Options &amp; info</a>
<a href="#/notifications">Notifications</a></nav>
<span class="bar-end"><span id="conn" class="conn" role="status"></span>
<button type="button" class="secondary" id="sign-out" hidden>Sign out</button></span></div></header>
<main class="wrap wide">
${SIGN_IN}
<div id="console" hidden>
<p id="route-note" class="notice" role="status"></p>
<p id="queue-announce" class="sr-only" aria-live="polite"></p>
${QUEUE}${OPTIONS}${NOTIFICATIONS}
</div>
</main>
${DIALOGS}
${pageScripts('staff-app.js')}
</body></html>`;
}
