/**
 * The pay page's script (/assets/app/pay.js; the order number is the page's `data-order-number`, checked digits). It reads the order, follows its
 * status changes live (orderUpdates over graphql-ws), and pays through the public API with the payToken from the
 * address; the countdown runs locally from the server's secondsLeft. The card form sends the card to
 * /api/orders/{n}/card-token (authorized by the payToken) and pays with the single-use token it gets back; after a
 * 502 the same token is sent again, so a retry reconciles the first attempt and never charges twice.
 */
import { connect, operation } from './graphql.js';
import { spell } from './rules.js';
import { previewLabel } from './sleeve-drawing.js';
import { holdAnnouncement, minutesAndSeconds, sameOriginImage } from './dom.js';

const orderNumber = document.body.dataset.orderNumber;
const token = new URLSearchParams(location.search).get('t') ?? '';
const $ = (id) => document.getElementById(id);
/** Runs a trusted operation by name (its hash, graphql.js); the whole answer, errors included. */
const gql = async (name, variables) => {
  const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(operation(name, variables)) });
  return res.json();
};
const post = async (path, body) => {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
};
let deadline = 0, timer = 0; // deadline 0: no countdown running
function show(order) {
  $('number').textContent = order.orderNumber;
  for (const k of ['size', 'font', 'thread']) $(k).textContent = order.order[k];
  $('text').textContent = order.order.stitchText;
  // Spelled as the ordering page spells it ("A · D · A · space · 1"), so the attendee checks the same thing twice.
  $('spelled').textContent = spell(order.order.stitchText);
  const image = sameOriginImage(order.previewImage);
  if ($('preview').getAttribute('src') !== image) {
    $('preview').src = image;
    $('preview').alt = previewLabel({ ...order.order, text: order.order.stitchText });
    $('preview').hidden = false;
  }
  $('status').textContent = order.message;
  const held = order.status === 'AWAITING_PAYMENT';
  // The pay form goes away under the user (paid elsewhere, the hold ran out): focus goes to what says why, not the body.
  if (!held && !$('pay').hidden && $('pay').contains(document.activeElement)) $('status').focus();
  if (!held) { clearTimeout(timer); deadline = 0; }
  $('pay').hidden = !held; $('countdown').hidden = !held;
  $('deadline').textContent = held ? 'Pay before ' + order.holdUntilText + '.' : '';
  if (held) {
    $('pay-label').textContent = order.payLabel;
    if (order.payButtonLabel) $('card-pay').textContent = order.payButtonLabel;
    // The hold's end never moves: set the countdown once (and again only once it ran out here while the server
    // still holds the order). A later copy of the order — the subscription's first event — would only move it by
    // the time that answer took to arrive: a visible jump.
    if (deadline <= Date.now()) { deadline = Date.now() + order.secondsLeft * 1000 + 500; tick(true); }
  }
}
function tick(first = false) {
  clearTimeout(timer);
  const ms = Math.max(0, deadline - Date.now());
  const left = Math.floor(ms / 1000);
  $('countdown').textContent = minutesAndSeconds(left);
  // The timer itself is silent (role=timer); the time left is said when it appears, then now and then.
  const said = first ? `${minutesAndSeconds(left)} left to pay.` : holdAnnouncement(left);
  if (said) $('countdown-announce').textContent = said;
  // secondsLeft is whole seconds (the hold ends 0–1 s after it says), so the deadline above is the middle of that
  // second; tick just after each whole second passes. At 0:00 ask the server again a second later — never at once
  // and over and over while it still says 0 seconds left.
  timer = left > 0 ? setTimeout(tick, (ms % 1000) + 10) : setTimeout(load, 1000);
}
async function load() {
  const { data } = await gql('PayPageOrder', { n: orderNumber, t: token });
  if (!data || !data.order) { $('status').textContent = 'This payment link is not valid. Check the link you were given.'; $('status').className = 'bad'; return; }
  show(data.order);
  follow();
}
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

/** Pays with a method and (for card and wallet) a token; returns the error code, or null when paid. */
async function pay(method, payWith) {
  const { data } = await gql('PayPagePay', { n: orderNumber, i: { t: token, method, ...(payWith ? { token: payWith } : {}) } });
  const r = data && data.payOrder;
  // Paid: the order's own message (the status above, live) says so; saying it here too would say it twice.
  if (r && r.message) { result('', true); await load(); return null; }
  const code = r && r.code ? r.code.toLowerCase() : 'internal';
  result(MESSAGES[code] ?? (r && r.error) ?? 'Something went wrong. Please try again.', false);
  if (code === 'cancelled') await load();
  return code;
}

// A token kept after a 502, so that pressing Pay again retries the same attempt. Editing the card drops it.
let cardToken = null;
const CARD_INPUTS = { cardNumber: 'card-number', expirationMonth: 'card-expiry', expirationYear: 'card-expiry', cardHolderName: 'card-name', cvc: 'card-cvc' };
const CARD_FIELDS = [...new Set(Object.values(CARD_INPUTS))];
for (const id of CARD_FIELDS) $(id).addEventListener('input', () => { cardToken = null; markCardField(id, false); });

/** Marks a card field at fault (or no longer): invalid, and described by the line that says why. */
function markCardField(id, invalid) {
  if (invalid) { $(id).setAttribute('aria-invalid', 'true'); $(id).setAttribute('aria-describedby', 'result'); }
  else { $(id).removeAttribute('aria-invalid'); $(id).removeAttribute('aria-describedby'); }
}

/** The vault's field names, as the form's labels say them, for a message that names one. */
const FIELD_WORDS = { cardNumber: 'card number', expirationMonth: 'expiry month', expirationYear: 'expiry year', cardHolderName: 'name on the card', cvc: 'security code' };
const inWords = (message) => {
  const said = message.replace(/\b(cardNumber|expirationMonth|expirationYear|cardHolderName|cvc)\b/g, (name) => FIELD_WORDS[name]);
  return said.charAt(0).toUpperCase() + said.slice(1);
};

/** What the form can tell before sending anything: each field at fault, with what to do about it. */
function cardProblems(card) {
  const problems = [];
  if (!/^\d{10,19}$/.test(card.cardNumber)) problems.push(['card-number', 'Enter the card number, 10 to 19 digits.']);
  if (!(card.expirationMonth >= 1 && card.expirationMonth <= 12)) problems.push(['card-expiry', 'Enter the expiry as MM/YY.']);
  if (!/^\d{3,4}$/.test(card.cvc)) problems.push(['card-cvc', 'Enter the security code, 3 or 4 digits.']);
  if (!card.cardHolderName) problems.push(['card-name', 'Enter the name on the card.']);
  return problems;
}

function readCard() {
  const exp = $('card-expiry').value.replace(/\s/g, '').match(/^(\d{1,2})\/?(\d{2}|\d{4})$/);
  return {
    cardNumber: $('card-number').value.replace(/[\s-]/g, ''),
    expirationMonth: exp ? Number(exp[1]) : 0,
    expirationYear: exp ? (exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2])) : 0,
    cardHolderName: $('card-name').value.trim(),
    cvc: $('card-cvc').value.trim(),
  };
}

$('card-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  busy(true); result('Paying…', true);
  try {
    if (!cardToken) {
      const card = readCard();
      const problems = cardProblems(card);
      for (const id of CARD_FIELDS) markCardField(id, problems.some(([at]) => at === id));
      if (problems.length > 0) {
        result(problems.map(([, text]) => text).join(' '), false);
        $(problems[0][0]).focus();
        return;
      }
      const res = await post('/api/orders/' + orderNumber + '/card-token', { t: token, ...card });
      if (res.status !== 200) {
        const input = $(CARD_INPUTS[res.body.field] ?? 'card-number');
        if (res.body.field) { markCardField(input.id, true); input.focus(); }
        result(MESSAGES[res.body.code] ?? (res.body.field ? 'Check the card details: ' : '') + inWords(res.body.error ?? 'The card was not accepted.'), false);
        // No field to fix: the order itself changed (paid elsewhere, cancelled): show it as it is now.
        if (!res.body.field) await load();
        return;
      }
      cardToken = res.body.token;
    }
    const code = await pay('CARD', cardToken);
    if (code !== 'payment_error' && code !== 'payment_unknown') cardToken = null;
    if (code === null) $('card-form').reset();
  } finally { busy(false); }
});

$('wallet-pay').addEventListener('click', async () => {
  busy(true); result('Waiting for the wallet…', true);
  try {
    const res = await post('/api/orders/' + orderNumber + '/wallet-token', { t: token });
    if (res.status !== 200) { result(MESSAGES[res.body.code] ?? 'The wallet is not available. Please pay by card.', false); return; }
    await pay('WALLET', res.body.token);
  } finally { busy(false); }
});

$('demo').addEventListener('click', async () => {
  busy(true); result('Paying…', true);
  try { await pay('VENDOR_CARD', null); } finally { busy(false); }
});
load();
