/**
 * The pay page's script (/assets/app/pay.js; the order number is the page's `data-order-number`, checked digits). It reads the order, follows its
 * status changes live (orderUpdates over graphql-ws), and pays through the public API with the payToken from the
 * address; the countdown runs locally from the server's secondsLeft. The card form sends the card to
 * /api/orders/{n}/card-token (authorized by the payToken) and pays with the single-use token it gets back; after a
 * 502 the same token is sent again, so a retry reconciles the first attempt and never charges twice.
 *
 * A request may get no answer the page can read: offline, a connection reset, a proxy's HTML 502 during a restart.
 * Money is at stake, so no such failure leaves "Paying…" or "Loading…" standing: a payment says it could not be
 * confirmed (the card's token kept, as after a 502), and the order is read again until an answer comes — with
 * growing waits, and at once when the browser is back online — to show what became of it.
 */
import { connect, isOutdated, operation, reloadForNewOperations } from './graphql.js';
import { previewLabel } from './sleeve-drawing.js';
import { orderTitle, retryDelay, sameOriginImage, writeSpelled, writeText } from './dom.js';
import { CARD_FIELDS, CARD_INPUTS, cardProblems, inWords, markCardField, problemsSentence, readCard } from './pay-card.js';
import { createHoldCountdown, heldSentence, payBefore } from './hold-countdown.js';

const orderNumber = document.body.dataset.orderNumber;
const token = new URLSearchParams(location.search).get('t') ?? '';
const $ = (id) => document.getElementById(id);
/** No answer the page can read: the request failed, or something other than this server answered (no JSON). */
class Unanswered extends Error {}
/** fetch, then the JSON answer; rejects with Unanswered when either fails. */
const ask = async (path, headers, body) => {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).catch(() => { throw new Unanswered(); });
  return { status: res.status, body: await res.json().catch(() => { throw new Unanswered(); }) };
};
/**
 * The server no longer knows this page's operations (a deploy changed one: docs/graphql.md#trusted-documents). It
 * ran nothing, so nothing was charged; the page reloads (at most once a minute, graphql.js), the order's link in its
 * address. The card typed is not kept: a card number is never stored in the browser.
 */
class Outdated extends Error {}
/** Runs a trusted operation by name (its hash, graphql.js); the whole answer, errors included. */
const gql = async (name, variables) => {
  const answer = (await ask('/graphql', { accept: 'application/json' }, operation(name, variables))).body;
  if (isOutdated(answer?.errors)) {
    reloadForNewOperations();
    throw new Outdated();
  }
  return answer;
};
const post = (path, body) => ask(path, {}, body);
// At 0:00 the order is read again a second later, as long as the server still holds it (hold-countdown.js).
const countdown = createHoldCountdown({ display: $('countdown'), announce: $('countdown-announce'), readAgain: () => load(), readAgainAfter: () => 1000 });
function show(order) {
  // Hidden until an order is known: a bad link or a server not answering showed a summary of "…" placeholders.
  $('summary').hidden = false;
  for (const k of ['size', 'font', 'thread']) $(k).textContent = order.order[k];
  $('text').textContent = order.order.stitchText;
  // Spelled as the ordering page spells it ("A · D · A · space · 1"), so the attendee checks the same thing twice.
  writeSpelled($('spelled'), order.order.stitchText);
  const image = sameOriginImage(order.previewImage);
  if ($('preview').getAttribute('src') !== image) {
    $('preview').src = image;
    $('preview').alt = previewLabel({ ...order.order, text: order.order.stitchText });
    $('preview').hidden = false;
  }
  const held = order.status === 'AWAITING_PAYMENT';
  // A live region: the same sentence again (the subscription's first event repeats the read) is not written again.
  writeText($('status'), held ? heldSentence(order) : order.message);
  // The tab's title says what became of the order; held, it is the page's own ("Pay for sleeve order 1003").
  document.title = held ? `Pay for sleeve order ${order.orderNumber}` : orderTitle(order.orderNumber, order.status);
  $('status').className = ''; // a failed read before may have marked it
  // The pay form goes away under the user (paid elsewhere, the hold ran out): focus goes to what says why, not the body.
  if (!held && !$('pay').hidden && $('pay').contains(document.activeElement)) $('status').focus();
  if (!held) countdown.stop();
  $('pay').hidden = !held; $('countdown').hidden = !held;
  // A cancelled order is no dead end: the page it was ordered on takes a new one (its message says they may).
  $('again').hidden = order.status !== 'CANCELLED';
  $('deadline').textContent = held ? payBefore(order.holdUntilText) : '';
  if (held) {
    $('pay-label').textContent = order.payLabel;
    if (order.payButtonLabel) $('card-pay').textContent = order.payButtonLabel;
    // The hold's end never moves: set the countdown once (and again only once it ran out here while the server
    // still holds the order). A later copy of the order — the subscription's first event — would only move it by
    // the time that answer took to arrive: a visible jump.
    if (countdown.ranOut) countdown.start(order.secondsLeft);
  }
}

/** Set when a payment got no answer: the next read of the order says, beside the pay buttons, what became of it. */
let unconfirmed = false;
let shown = false, rereadTimer = 0, rereads = 0;
/**
 * Reads the order and shows it; resolves to whether it could. Without an answer (offline, a proxy's 502, the server
 * failing for now: errors, with `order` null or no data at all) it reads again by itself after about 1, 2, 4… s (at
 * most 30 s, jittered, so a restarted server is not met by every page at once), and at once when back online.
 */
async function load() {
  clearTimeout(rereadTimer); rereadTimer = 0;
  const answer = await gql('PayPageOrder', { n: orderNumber, t: token }).catch(() => null);
  // A wrong token is `order: null` without errors (the link is bad for good); with errors the server did not say.
  if (!answer?.data || answer.errors?.length) {
    // Before the first answer the page has nothing else to show; later, what it shows stays (the last known order).
    const said = 'The order could not be loaded just now. This page tries again by itself.';
    if (!shown && $('status').textContent !== said) { $('status').textContent = said; $('status').className = 'bad'; }
    clearTimeout(rereadTimer); // two reads failing at once (a payment's and the backoff's) keep one chain of rereads
    rereadTimer = setTimeout(load, retryDelay(rereads++, { firstMs: 1000, maxMs: 30_000 }));
    return false;
  }
  rereads = 0;
  if (!answer.data.order) {
    $('status').textContent = 'This payment link is not valid. Check the link you were given.'; $('status').className = 'bad';
    document.title = 'Payment link not valid'; // as the page for a link that is no pay page at all (pay-page.ts)
    return false;
  }
  shown = true;
  show(answer.data.order);
  if (unconfirmed) {
    unconfirmed = false;
    // Paid or ended, the status above says it (and the pay form is gone); still held, this line says so.
    if (answer.data.order.status === 'AWAITING_PAYMENT') result(MESSAGES.not_paid, false);
    else result('', true);
  }
  follow();
  return true;
}
// Back online: no need to wait out the rest of a backoff to show the truth.
addEventListener('online', () => { if (rereadTimer) load(); });
// Every status change of this order arrives live (paid in another tab, cancelled by staff, the hold ending).
let following = false;
function follow() {
  if (following) return;
  following = true;
  connect().follow('PayPageUpdates', { n: orderNumber, t: token }, {
    next: (data) => show(data.orderUpdates),
    error: () => {},
  });
}

const MESSAGES = {
  declined: 'Your card was declined and nothing was charged. Check the details, or try another card or the wallet.',
  payment_error: 'The payment processor had a problem and nothing was charged. Please press Pay again.',
  payment_unknown: 'We could not confirm the payment yet. Press Pay again: you will never be charged twice.',
  cancelled: 'This order is cancelled, so it can no longer be paid.',
  not_found: 'This payment link is not valid. Check the link you were given.',
  rate_limited: 'Too many attempts. Wait a moment, then try again.',
  unanswered: 'We could not confirm the payment: no answer came from the server. Press Pay again (once you are online): you will never be charged twice. This page checks the order again by itself.',
  not_paid: 'Checked again: the order is not paid yet. Press Pay again: you will never be charged twice.',
  outdated: 'Nothing was charged: this page has been updated on the server and reloads by itself. Then press Pay again.',
};
function result(text, ok) { $('result').textContent = text; $('result').className = ok ? 'ok' : 'bad'; }

// The button pressed is disabled while paying, and a disabled button loses focus to the page's body: it gets it
// back when it can take it again, else the line that says what happened does (a keyboard user stays in place).
let focusedBefore = null;
function busy(on) {
  if (on) focusedBefore = document.activeElement;
  for (const id of ['card-pay', 'wallet-pay', 'demo']) $(id).disabled = on;
  if (on) return;
  const before = focusedBefore;
  focusedBefore = null;
  if (document.activeElement && document.activeElement !== document.body) return;
  if (before && before.isConnected && !before.disabled && before.offsetParent !== null) before.focus();
  else ($('pay').hidden ? $('status') : $('result')).focus();
}

/**
 * Pays with a method and (for card and wallet) a token; returns the error code, or null when paid. Rejects with
 * Unanswered when the outcome is unknown: no answer, or one without a payOrder result (the server unavailable).
 */
async function pay(method, payWith) {
  const { data, errors } = await gql('PayPagePay', { n: orderNumber, i: { t: token, method, ...(payWith ? { token: payWith } : {}) } });
  const r = data && data.payOrder;
  // Paid: the order's own message (the status above, live) says so; saying it here too would say it twice. Unless
  // the order cannot be read just now: then this line says it was paid.
  if (r && r.message) { result('', true); if (!(await load())) result(r.message, true); return null; }
  // Refused before it ran (too many attempts): nothing was tried, nothing is unknown.
  if (!r && errors?.[0]?.extensions?.code !== 'RATE_LIMITED') throw new Unanswered();
  const code = r ? (r.code ?? 'internal').toLowerCase() : 'rate_limited';
  result(MESSAGES[code] ?? (r && r.error) ?? 'Something went wrong. Please try again.', false);
  if (code === 'cancelled') await load();
  return code;
}

// A token kept after a 502 or a payment that got no answer, so that pressing Pay again retries the same attempt.
// Editing the card drops it.
let cardToken = null;
for (const id of CARD_FIELDS) $(id).addEventListener('input', () => { cardToken = null; markCardField(id, ''); });

/**
 * One press of a way to pay: `progress` shown while `run` runs. Whatever fails in it (no answer, an answer that is
 * not the server's) ends in words and a reread, never in the progress text left standing or an uncaught error. What a
 * retry needs stays: the card's token (only a known outcome drops it), and the server reconciles a payment whose
 * outcome it does not know before it tries a new one (order-charge-service.ts), so paying again never charges twice.
 */
async function attempt(progress, run) {
  busy(true); result(progress, true);
  unconfirmed = false;
  try {
    await run();
  } catch (error) {
    if (error instanceof Outdated) return result(MESSAGES.outdated, false);
    unconfirmed = true;
    result(MESSAGES.unanswered, false);
    load();
  } finally { busy(false); }
}

$('card-form').addEventListener('submit', (event) => {
  event.preventDefault();
  attempt('Paying…', async () => {
    if (!cardToken) {
      const card = readCard();
      const problems = cardProblems(card);
      for (const id of CARD_FIELDS) markCardField(id, problems.find(([at]) => at === id)?.[1]);
      if (problems.length > 0) {
        result(problemsSentence(problems), false);
        $(problems[0][0]).focus();
        return;
      }
      const res = await post('/api/orders/' + orderNumber + '/card-token', { t: token, ...card });
      if (res.status !== 200) {
        const input = $(CARD_INPUTS[res.body.field] ?? 'card-number');
        const said = inWords(res.body.error ?? 'The card was not accepted.');
        if (res.body.field) { markCardField(input.id, said); input.focus(); }
        result(MESSAGES[res.body.code] ?? (res.body.field ? 'Check the card details: ' : '') + said, false);
        // No field to fix: the order itself changed (paid elsewhere, cancelled): show it as it is now.
        if (!res.body.field) await load();
        return;
      }
      cardToken = res.body.token;
    }
    const code = await pay('CARD', cardToken);
    if (code !== 'payment_error' && code !== 'payment_unknown') cardToken = null;
    if (code === null) $('card-form').reset();
  });
});

$('wallet-pay').addEventListener('click', () => attempt('Waiting for the wallet…', async () => {
  const res = await post('/api/orders/' + orderNumber + '/wallet-token', { t: token });
  if (res.status !== 200) { result(MESSAGES[res.body.code] ?? 'The wallet is not available. Please pay by card.', false); return; }
  await pay('WALLET', res.body.token);
}));

$('demo').addEventListener('click', () => attempt('Paying…', () => pay('VENDOR_CARD', null)));
load();
