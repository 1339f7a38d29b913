/**
 * The page at payUrl (`/pay/{orderNumber}?t=…`), document 1 §3: the order summary with the stitch text spelled out,
 * the hold countdown, payLabel, and three ways to pay — a card form, the sandbox wallet, the demo card. Static
 * HTML with no secret of its own: the script uses the payToken from the address. The card number goes only to the
 * order's tokenization path (authorized by that payToken, never by a site key), which answers a single-use token
 * bound to this order; the page then pays with it (docs/platform.md#pay-page-tokens). Style and script are files
 * (app/pay.css, app/pay.js): the page's Content-Security-Policy allows no inline script or style
 * (docs/edge.md#page-headers), so the order number reaches the script as a data attribute.
 */
import { APP_ASSETS, FAVICON_LINK } from './page-shell.ts';

export function renderPayPage(orderNumber: string): string {
  // Digits only (the route checks it too): nothing from the address can become markup.
  const n = orderNumber.replace(/[^0-9]/gu, '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pay for sleeve order ${n}</title>${FAVICON_LINK}<link rel="stylesheet" href="${APP_ASSETS}/pay.css"></head>
<body data-order-number="${n}">
<header class="bar"><div class="bar-inner"><a class="brand" href="/">Sleeve</a><span class="bar-note">Payment</span></div></header>
<main>
<h1>Sleeve order <span id="number">${n}</span></h1>
<section class="card" id="summary" aria-labelledby="summary-title" hidden><h2 id="summary-title">Your sleeve</h2>
<img class="sleeve-preview" id="preview" alt="" width="480" height="340" hidden>
<dl><dt>Size</dt><dd id="size">…</dd><dt>Font</dt><dd id="font">…</dd><dt>Thread</dt><dd id="thread">…</dd>
<dt>Stitch text</dt><dd id="text">…</dd><dt>Letter by letter</dt><dd id="spelled" class="spell">…</dd></dl></section>
<section class="card"><p id="status" role="status" tabindex="-1">Loading…</p>
<p class="countdown" id="countdown" role="timer" aria-label="Time left to pay" hidden></p>
<p id="countdown-announce" class="sr-only" aria-live="polite"></p>
<p class="note" id="deadline"></p>
<p id="again" hidden><a href="/">Order another sleeve</a></p></section>
<section class="card" id="pay" hidden aria-labelledby="pay-label">
<h2 id="pay-label"></h2>
<form id="card-form" novalidate autocomplete="on">
<label for="card-number">Card number</label>
<input id="card-number" name="cardnumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456" maxlength="23" required>
<p id="card-number-error" class="error"></p>
<div class="row"><div><label for="card-expiry">Expiry (MM/YY)</label>
<input id="card-expiry" name="exp-date" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required>
<p id="card-expiry-error" class="error"></p></div>
<div><label for="card-cvc">Security code</label>
<input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" required>
<p id="card-cvc-error" class="error"></p></div></div>
<label for="card-name">Name on card</label>
<input id="card-name" name="ccname" autocomplete="cc-name" maxlength="100" required>
<p id="card-name-error" class="error"></p>
<button id="card-pay" type="submit">Pay $1.00</button>
</form>
<p class="or">or</p>
<button id="wallet-pay" type="button" class="secondary">Pay with the sandbox wallet</button>
<button id="demo" type="button" class="secondary">Pay with the demo card (nothing is charged)</button>
<p id="result" role="status" aria-live="assertive" tabindex="-1"></p>
<p class="note">Your card number goes only to the card vault; this page never keeps it.</p></section>
</main>
<script src="/assets/graphql-ws.js"></script>
<script type="module" src="${APP_ASSETS}/pay.js"></script></body></html>`;
}

/**
 * What a browser gets for an address under /pay/ that is no pay page (404): a link a chat app took with the
 * punctuation after it (`/pay/1001)`, `/pay/1001/`, `/pay/1001.?t=…`). The pay page's own sentence for a link that
 * is not valid, instead of the JSON 404 an API client gets. Static: nothing from the address is in it, and no script.
 */
export function renderPayLinkNotValidPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payment link not valid</title>${FAVICON_LINK}<link rel="stylesheet" href="${APP_ASSETS}/pay.css"></head>
<body>
<header class="bar"><div class="bar-inner"><a class="brand" href="/">Sleeve</a><span class="bar-note">Payment</span></div></header>
<main>
<h1>Sleeve payment</h1>
<section class="card"><p id="status" class="bad" role="alert">This payment link is not valid. Check the link you were given.</p>
<p class="note">A link cut short, or with a character added at its end, is not valid. On the device you ordered on,
<a href="/">the ordering page</a> shows your order and its way to pay.</p></section>
</main></body></html>`;
}
