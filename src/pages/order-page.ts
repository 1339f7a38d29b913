/**
 * The ordering page at `/` (issue 8): attendees choose a sleeve, confirm the stitch text spelled back, pay, and
 * follow their order until pickup. Static markup; the script (app/order-app.js and the modules it imports) talks
 * only GraphQL. The page holds no secret: an attendee's own payToken stays in their browser's localStorage.
 */
import { pageHead, pageScripts } from './page-shell.ts';

const FORM = `
<form id="order-form" class="card" novalidate aria-labelledby="form-title">
<h2 id="form-title">Your sleeve</h2>
<fieldset><legend>Size</legend><div class="choices" id="sizes"></div></fieldset>
<fieldset><legend>Font</legend><div class="choices" id="fonts"></div></fieldset>
<fieldset><legend>Thread</legend><div class="choices" id="threads"></div></fieldset>
<p id="withdrawn" class="notice" role="status" aria-live="polite" tabindex="-1"></p>
<p id="choice-error" class="error" role="alert"></p>
<div class="field"><label for="stitchText">Text to stitch</label>
<input id="stitchText" name="stitchText" autocomplete="off" autocapitalize="characters" spellcheck="false"
 aria-describedby="stitch-help stitch-count stitch-error" required>
<p id="stitch-help" class="hint"></p>
<p id="stitch-count" class="counter"></p>
<p id="stitch-error" class="error"></p>
<p id="stitch-said" class="sr-only" aria-live="polite"></p>
<img class="sleeve-preview phone-only" id="preview-image-inline" alt="" width="480" height="340"></div>
<div class="field"><label for="name">First and last name</label>
<input id="name" name="name" autocomplete="name" aria-describedby="name-help name-error" required>
<p id="name-help" class="hint">Checked at pickup: whoever collects gives this first and last name.</p>
<p id="name-error" class="error"></p></div>
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" aria-describedby="email-error" required>
<p id="email-error" class="error"></p></div>
<div class="actions"><button type="submit">Review my order</button></div>
</form>`;

const PREVIEW = `
<aside class="card" aria-labelledby="preview-title" id="preview">
<h2 id="preview-title">Preview</h2>
<img class="sleeve-preview" id="preview-image" alt="" width="480" height="340">
<p class="hint">Drawn with this device’s fonts: the embroidery’s letters follow the font you choose.</p>
<p class="spelled" id="preview-spelled"></p>
</aside>`;

const CONFIRM = `
<section id="confirm" class="card" hidden tabindex="-1" aria-labelledby="confirm-title">
<h2 id="confirm-title">Check your sleeve before we stitch it</h2>
<dl class="facts"><dt>Size</dt><dd id="confirm-size"></dd><dt>Font</dt><dd id="confirm-font"></dd>
<dt>Thread</dt><dd id="confirm-thread"></dd><dt>Name</dt><dd id="confirm-name"></dd><dt>Email</dt><dd id="confirm-email"></dd></dl>
<p><strong>Embroidery is permanent.</strong> We will stitch exactly this text:</p>
<img class="sleeve-preview" id="confirm-image" alt="" width="480" height="340">
<p class="stitch-preview" id="confirm-text"></p>
<p>Letter by letter:</p>
<p class="spelled" id="confirm-spelled"></p>
<div class="actions"><button type="button" id="confirm-yes">Yes, stitch exactly this</button>
<button type="button" class="secondary" id="confirm-edit">Change something</button></div>
<p id="confirm-error" class="error" role="alert"></p>
</section>`;

const ORDER = `
<section id="order" hidden tabindex="-1" aria-labelledby="order-title">
<p id="order-device" class="note">This order is saved on this device.
<button type="button" class="link" id="new-order">Order another sleeve</button><span class="sep" aria-hidden="true"> · </span><button type="button" class="link" id="forget-orders">Forget it on this device</button></p>
<div class="card">
<h2 id="order-title">Order <span id="order-number"></span></h2>
<ol class="steps" id="steps" aria-label="Order progress"></ol>
<p id="order-message" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
<p id="order-note" class="note" role="status" hidden></p>
<div id="pickup" class="pickup" hidden><h3>Ready for pickup</h3><p class="big" id="pickup-number"></p>
<p>Go to the pickup station, say this order number, and give the first and last name on the order.</p></div>
<div id="hold" hidden>
<p>Pay before <strong id="hold-until"></strong>, or the order is cancelled.</p>
<p class="countdown" id="countdown" role="timer" aria-label="Time left to pay"></p>
<p id="countdown-announce" class="sr-only" aria-live="polite"></p>
<p class="hint">Two ways to pay; choose either.</p>
<div class="pay-ways">
<div class="pay-way"><h3>Your own card or wallet</h3><p id="pay-label"></p>
<a class="button" id="pay-link" target="_blank" rel="noopener">Open the payment page<span class="sr-only"> (opens in a new tab)</span></a></div>
<div class="pay-way"><h3>The demo card</h3><p>Nothing is charged.</p>
<button type="button" id="pay-demo">Pay with the demo card</button></div>
</div>
<p id="pay-result" role="status" aria-live="polite"></p>
</div>
</div>
<div class="card"><h3>Your sleeve</h3>
<img class="sleeve-preview" id="order-image" alt="" width="480" height="340">
<dl class="facts"><dt>Size</dt><dd id="order-size"></dd><dt>Font</dt><dd id="order-font"></dd><dt>Thread</dt><dd id="order-thread"></dd>
<dt>Stitch text</dt><dd id="order-text"></dd><dt>Letter by letter</dt><dd class="spelled" id="order-spelled"></dd></dl>
</div>
</section>`;

export function renderOrderPage(): string {
  return `<!doctype html>
<html lang="en">${pageHead('Order a sleeve', ['base.css', 'order.css'])}
<body>
<header class="bar"><div class="wrap"><a class="brand" href="/">Sleeve</a>
<span id="conn" class="conn" role="status">Connecting…</span></div></header>
<main class="wrap">
<h1 id="title">Order an embroidered laptop sleeve</h1>
<p class="lead" id="lead">Choose a size, a font and a thread colour, and the text to stitch. We embroider it while you wait.</p>
<p id="load-error" class="error" role="alert"></p>
<p id="saved-orders" class="note" hidden></p>
<p id="forgotten" class="note" role="status"></p>
<div class="layout" id="start">${FORM}${PREVIEW}</div>
${CONFIRM}
${ORDER}
</main>
${pageScripts('order-app.js')}
</body></html>`;
}
