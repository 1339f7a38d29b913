/**
 * The merchant portal at `/portal` (issue 19, docs/merchant-webhooks.md#the-portal): a site signs in with its site id
 * and API key (kept in sessionStorage, this tab only), manages its webhook endpoints (health, add, edit, rotate the
 * secret, send a test event) and follows each endpoint's deliveries with every attempt. Static markup; the script
 * (app/portal-app.js and its modules) talks only to the REST paths of /v1/webhooks/endpoints with basic auth.
 */
import { DESCRIPTION_MAX, EVENT_TYPES, type EventType } from '../notifications/endpoint-rules.ts';
import { APP_ASSETS, pageHead } from './page-shell.ts';

/** What the portal calls each of document 2's five notifications (their event type is the path without its slash). */
const EVENT_LABELS: Record<EventType, string> = {
  'token-updated': 'Token updated',
  requestforevidencenotification: 'Request for evidence',
  accountupdatenotification: 'Account update',
  orderstatusupdatenotification: 'Order status update',
  itemlistingrequestupdatenotification: 'Item listing request update',
};

const SIGN_IN = `
<section id="sign-in" class="card narrow" aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Merchant portal</h1>
<p class="hint">Manage where your site’s notifications are sent, and see every delivery.</p>
<form id="sign-in-form" novalidate>
<div class="field"><label for="site-id">Site id</label>
<input id="site-id" autocomplete="username" autocapitalize="none" spellcheck="false" required aria-describedby="sign-in-error"></div>
<div class="field"><label for="api-key">API key</label>
<input id="api-key" type="password" autocomplete="current-password" required aria-describedby="api-key-help sign-in-error">
<p id="api-key-help" class="hint">Kept in this browser tab only: closing the tab signs you out.</p></div>
<p id="sign-in-error" class="error" role="alert"></p>
<button type="submit">Sign in</button>
</form></section>`;

const ENDPOINTS = `
<section id="endpoints" aria-labelledby="endpoints-title">
<div class="section-head"><h1 id="endpoints-title" tabindex="-1">Webhook endpoints</h1>
<button type="button" id="add-endpoint">Add endpoint</button></div>
<p id="endpoints-state" role="status" aria-live="polite"></p>
<p id="endpoints-error" class="error" role="alert"></p>
<ul class="endpoint-list" id="endpoint-list" aria-label="Your endpoints"></ul>
</section>`;

const DETAIL = `
<section id="endpoint" hidden aria-labelledby="endpoint-title">
<div class="section-head"><h2 id="endpoint-title" tabindex="-1"></h2></div>
<div id="secret-box" class="secret card" hidden role="region" aria-labelledby="secret-title">
<h3 id="secret-title">Signing secret</h3>
<p>Copy it now and store it where your receiver reads it: it is not shown again.</p>
<div class="copy-row"><label class="sr-only" for="secret">Signing secret</label>
<input id="secret" readonly spellcheck="false" class="mono">
<button type="button" id="copy-secret">Copy</button></div>
<p id="secret-note" class="hint" role="status" aria-live="polite"></p>
<div class="actions"><button type="button" class="secondary" id="secret-done">I have stored it</button></div>
</div>
<div class="card"><dl class="facts" id="endpoint-facts"></dl>
<p id="endpoint-health" class="health" role="status" aria-live="polite"></p>
<div class="actions">
<button type="button" class="secondary" id="edit-endpoint">Edit</button>
<button type="button" class="secondary" id="send-test" aria-describedby="endpoint-health">Send test event</button>
<button type="button" class="secondary" id="rotate-secret">Rotate secret…</button>
<button type="button" class="secondary" id="delete-endpoint">Delete…</button></div>
<p id="endpoint-result" role="status" aria-live="polite"></p>
<p id="endpoint-alert" class="error" role="alert"></p></div>
<div class="section-head"><h2 id="deliveries-title">Deliveries</h2>
<div class="inline-form"><label for="delivery-status">Show</label>
<select id="delivery-status"><option value="">All</option><option value="PENDING">Pending</option>
<option value="DELIVERED">Delivered</option><option value="FAILED">Failed</option>
<option value="DROPPED">Dropped</option></select></div></div>
<p id="deliveries-state" class="hint" role="status" aria-live="polite"></p>
<p id="send-again-note" class="hint" hidden>Enable the endpoint to send again: nothing is sent to a disabled endpoint.</p>
<p id="deliveries-error" class="error" role="alert"></p>
<ul class="deliveries" id="delivery-list" aria-labelledby="deliveries-title"></ul>
<div class="actions" id="older-row" hidden><button type="button" class="secondary" id="older-deliveries">Load older deliveries</button></div>
<form id="recover-form" class="card" novalidate>
<h3>Recover failed deliveries</h3>
<div class="field"><label for="recover-since">Send again every failed delivery since</label>
<input id="recover-since" type="datetime-local" required aria-describedby="recover-help">
<p id="recover-help" class="hint">Your local time. Use it after your receiver was down.</p></div>
<p id="recover-result" role="status" aria-live="polite"></p>
<p id="recover-error" class="error" role="alert"></p>
<p id="recover-note" class="hint" hidden>Enable the endpoint to send again: nothing is sent to a disabled endpoint.</p>
<button type="submit" class="secondary" id="recover-submit">Recover</button>
</form>
</section>`;

const EVENT_CHECKBOXES = EVENT_TYPES.map(
  (value) => `<label class="check"><input type="checkbox" name="eventTypes" value="${value}"> ${EVENT_LABELS[value]} <span class="hint mono">${value}</span></label>`,
).join('');

const DIALOGS = `
<dialog id="endpoint-dialog" aria-labelledby="endpoint-dialog-title">
<form id="endpoint-form" novalidate>
<h2 id="endpoint-dialog-title">Add endpoint</h2>
<div class="field"><label for="endpoint-url">URL</label>
<input id="endpoint-url" type="url" inputmode="url" autocomplete="off" spellcheck="false" required aria-describedby="endpoint-url-help">
<p id="endpoint-url-help" class="hint">Each notification is POSTed to this URL plus its path, e.g. …/token-updated.</p></div>
<div class="field"><label for="endpoint-description">Description (optional)</label>
<input id="endpoint-description" autocomplete="off" maxlength="${DESCRIPTION_MAX}"></div>
<fieldset class="field"><legend>Event types</legend>
<p class="hint" id="event-types-help">None ticked: every event type, including those added later.</p>
<div class="checks">${EVENT_CHECKBOXES}</div></fieldset>
<label class="check"><input type="checkbox" id="endpoint-enabled" checked> Enabled: send notifications to it</label>
<p id="endpoint-error" class="error" role="alert"></p>
<div class="actions"><button type="submit" id="endpoint-save">Save</button>
<button type="button" class="secondary" data-close>Cancel</button></div>
</form></dialog>
<dialog id="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
<form id="confirm-form" novalidate>
<h2 id="confirm-title"></h2><p id="confirm-text"></p>
<p id="confirm-error" class="error" role="alert"></p>
<div class="actions"><button type="submit" id="confirm-yes"></button>
<button type="button" class="secondary" data-close>Cancel</button></div>
</form></dialog>`;

export function renderPortalPage(): string {
  return `<!doctype html>
<html lang="en">${pageHead('Sleeve merchant portal', ['base.css', 'staff.css', 'portal.css'])}
<body>
<header class="bar"><div class="wrap wide"><a class="brand" href="/portal">Sleeve merchants</a>
<span class="bar-end"><span id="site-name" class="conn"></span><span id="conn" class="conn" role="status"></span>
<button type="button" class="secondary" id="sign-out" hidden>Sign out</button></span></div></header>
<main class="wrap wide">
${SIGN_IN}
<div id="portal" class="portal" hidden>
${ENDPOINTS}${DETAIL}
</div>
</main>
${DIALOGS}
<script type="module" src="${APP_ASSETS}/portal-app.js"></script>
</body></html>`;
}
