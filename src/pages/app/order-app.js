/**
 * The ordering page (issue 8): the form, the confirmation that spells the stitch text back, and the order view.
 * Options are followed live (sleeveOptionsChanged), so a choice withdrawn during the event disappears. A returning
 * visitor on the same device sees their order again: {orderNumber, payToken, emailTag} stay in localStorage (the payToken
 * is the visitor's own secret for their own order), with up to five earlier orders of this device. What is typed on
 * the form stays in sessionStorage (this tab) until the order is made, for a reload.
 */
import { $, h, showConnection, writeSpelled } from './dom.js';
import { connect } from './graphql.js';
import { createOrderForm } from './order-form.js';
import { createOrderStatus } from './order-status.js';
import { previewLabel, svgDataUrl } from './sleeve-drawing.js';

const STORAGE_KEY = 'sleeve.order';
/** Orders this device made before the one shown: the payToken is no longer answered once an order is paid. */
const EARLIER_KEY = 'sleeve.earlierOrders';
const EARLIER_MAX = 5;

/**
 * The form as it was when the page reloaded for new operations (graphql.js: a deploy changed one, and CreateOrder
 * was refused unrun): sessionStorage, this tab only, taken back at once. Without it the reload lost what was typed.
 */
const FORM_KEY = 'sleeve.formBeforeReload';
const api = connect({
  onState: showConnection,
  beforeReload: () => sessionStorage.setItem(FORM_KEY, JSON.stringify(form.values())),
});
/** The form kept by the reload, once: read and forgotten. */
function formBeforeReload() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(FORM_KEY));
    sessionStorage.removeItem(FORM_KEY);
    return saved;
  } catch {
    return null;
  }
}

/**
 * What is typed on the form (choices, stitch text, name, email), kept at every change across any reload of the form
 * or the confirmation (a phone reloads a tab it discarded while its user checked their mail; pull to refresh):
 * sessionStorage, this tab only; never a payToken. Gone once the order is made, so Back from the order and a reload
 * show the order again, as documented.
 */
const TYPED_KEY = 'sleeve.typed';
const typed = {
  keep: () => { try { sessionStorage.setItem(TYPED_KEY, JSON.stringify(form.values())); } catch { /* not kept */ } },
  read: () => { try { return JSON.parse(sessionStorage.getItem(TYPED_KEY)); } catch { return null; } },
  drop: () => { try { sessionStorage.removeItem(TYPED_KEY); } catch { /* nothing kept */ } },
};

const readJson = (key) => { try { return JSON.parse(localStorage.getItem(key)); } catch { return null; } };
const stored = {
  read: () => readJson(STORAGE_KEY),
  /** A new order keeps the one it replaces among the earlier ones: Back and a second order lost a paid order's token. */
  write: (value) => {
    const current = readJson(STORAGE_KEY);
    const earlier = (readJson(EARLIER_KEY) ?? []).filter((o) => o.orderNumber !== value.orderNumber && o.orderNumber !== current?.orderNumber);
    if (current?.orderNumber && current.orderNumber !== value.orderNumber) earlier.unshift(current);
    localStorage.setItem(EARLIER_KEY, JSON.stringify(earlier.slice(0, EARLIER_MAX)));
    localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  },
  clear: () => localStorage.removeItem(STORAGE_KEY),
  /** All of them, the one shown and the earlier ones: a shared device (a kiosk) passes on to the next attendee. */
  forget: () => {
    localStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(EARLIER_KEY);
  },
  /** Every order saved on this device, the one shown first. */
  all: () => [readJson(STORAGE_KEY), ...(readJson(EARLIER_KEY) ?? [])].filter((o) => o?.orderNumber && o?.payToken),
};

let draft = null;

/**
 * A short tag of an email as the server compares emails (trimmed, lower case), to know a saved order's email again
 * without keeping the address: FNV-1a, since crypto.subtle exists only on https or localhost, and a venue may serve
 * the page over plain http. Collisions matter little: it is compared with the few orders of this device.
 */
function emailTag(email) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(email.trim().toLowerCase())) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * Each step is an entry in the tab's history, so a phone's Back button goes back a step instead of leaving the page:
 * Back from the confirmation is "Change something"; Back from an order goes to the form, as after a multi-page
 * checkout (the order stays saved on this device, Forward or a reload shows it again). `replace`: the step takes
 * the current entry's place (the page's first step; the order that took the confirmation's place).
 */
function enterStep(step, { replace = false } = {}) {
  if (replace) history.replaceState({ step }, '');
  else if (history.state?.step !== step) history.pushState({ step }, '');
  showStep(step);
}

window.addEventListener('popstate', (event) => {
  const wanted = event.state?.step ?? 'form';
  // An entry kept from before a reload, or a finished order: what it showed is gone, so the form stands in.
  const step = (wanted === 'confirm' && !draft) || (wanted === 'order' && !stored.read()) ? 'form' : wanted;
  showStep(step);
  if (step === 'form') $('#stitchText').focus();
});

function showStep(step) {
  $('#start').hidden = step !== 'form';
  showSavedOrders(step === 'form');
  if (step !== 'form') $('#forgotten').textContent = '';
  $('#confirm').hidden = step !== 'confirm';
  $('#order').hidden = step !== 'order';
  $('#lead').hidden = step === 'order';
  $('#title').textContent = step === 'order' ? 'Your sleeve order' : 'Order an embroidered laptop sleeve';
  // The tab's title follows the step, the order's its status (order-status.js): it is what a tab list reads.
  if (step === 'order') status.showTitle();
  else document.title = step === 'confirm' ? 'Check your sleeve — Order a sleeve' : 'Order a sleeve';
  if (step !== 'form') $(`#${step}`).focus();
}

const form = createOrderForm({
  onReview(values) {
    draft = values;
    for (const k of ['size', 'font', 'thread', 'name', 'email']) $(`#confirm-${k}`).textContent = values[k];
    $('#confirm-text').textContent = values.stitchText;
    $('#confirm-image').src = svgDataUrl(form.previewSvg(values));
    $('#confirm-image').alt = previewLabel({ ...values, text: values.stitchText });
    writeSpelled($('#confirm-spelled'), values.stitchText);
    $('#confirm-error').textContent = '';
    enterStep('confirm');
  },
});

// Every change the user makes to the form is kept for a reload (radios fire `change`, fields `input`).
for (const type of ['input', 'change']) $('#order-form').addEventListener(type, typed.keep);

const status = createOrderStatus({
  api,
  onFinished() {
    stored.clear();
    enterStep('form', { replace: true });
    $('#stitchText').focus();
  },
  // A step of its own, as Back from the order: the order stays saved and listed on the form, and Back shows it again.
  onAnother() {
    enterStep('form');
    $('#stitchText').focus();
  },
});

const linkButton = (text, onclick) => h('button', { type: 'button', class: 'link', onclick }, text);

/**
 * On the form: the orders saved on this device, each a button that shows it again, and one that forgets them all
 * (a shared device: the next attendee should not reach the last one's orders, their stitch text or their pay link).
 */
function showSavedOrders(shown) {
  const saved = shown ? stored.all() : [];
  const note = $('#saved-orders');
  note.hidden = saved.length === 0;
  if (saved.length === 0) return note.replaceChildren();
  note.replaceChildren(document.createTextNode(saved.length === 1 ? 'Saved on this device: ' : 'Orders saved on this device: '),
    // A step of its own in the history: Back from it comes back to the form.
    ...saved.map((mine) => linkButton(`order ${mine.orderNumber}`, () => openSaved(mine, '', { replace: false }))),
    h('span', { class: 'sep', 'aria-hidden': 'true' }, ' · '),
    linkButton(saved.length === 1 ? 'Forget it on this device' : 'Forget them on this device', forgetSavedOrders));
}

/**
 * Forgets every saved order of this device; the form says so where focus was (the button is gone). From the order
 * view the device is being handed on (a kiosk's next attendee): the order is no longer followed, and the form, which
 * holds what the last attendee typed, is emptied.
 */
function forgetSavedOrders() {
  stored.forget();
  if (!$('#order').hidden) {
    status.stop();
    form.clear();
    typed.drop();
    enterStep('form', { replace: true });
  }
  showSavedOrders(true);
  $('#forgotten').textContent = 'Forgotten on this device. The orders themselves are not changed.';
  $('#stitchText').focus();
}
$('#forget-orders').addEventListener('click', forgetSavedOrders);

/** A saved order shown again (read afresh); `note`, `step` as for showOrder. One no longer found is forgotten. */
async function openSaved(mine, note = '', step = {}) {
  const { order } = await api.request('OrderPageOrder', { n: mine.orderNumber, t: mine.payToken });
  if (order) return showOrder(mine, order, note, step);
  localStorage.setItem(EARLIER_KEY, JSON.stringify((readJson(EARLIER_KEY) ?? []).filter((o) => o.orderNumber !== mine.orderNumber)));
  if (stored.read()?.orderNumber === mine.orderNumber) stored.clear();
  showSavedOrders(true);
}

/**
 * `note`: a sentence above the order, e.g. that it is the one already held for this email (none: hidden); a string,
 * or { note, whileHeld } for one true only while the order waits for payment (order-status.js).
 * `replace`: the order takes the current step's place (the confirmation's, the page's first), as enterStep's.
 */
function showOrder(mine, order, note = '', { replace = true } = {}) {
  stored.write(mine);
  status.show(mine, order, typeof note === 'string' ? { note } : note);
  const saved = stored.all().length;
  $('#forget-orders').textContent = saved > 1 ? `Forget the ${saved} orders saved on this device` : 'Forget it on this device';
  enterStep('order', { replace });
}

async function createOrder() {
  const button = $('#confirm-yes');
  button.disabled = true;
  $('#confirm-error').textContent = '';
  try {
    const data = await api.request('CreateOrder', { input: draft });
    const result = data.createOrder;
    // A duplicate still held comes back with its payToken: that is this visitor's order, show it. (`existing`:
    // ApiError's `order` would clash with Order's `order` field in one selection.)
    const order = result.code === 'DUPLICATE' && result.existing?.payToken ? result.existing : result.code ? null : result;
    // Document 1 hands a held duplicate's token back; the page says so rather than show it as if it were new. It may
    // be the attendee's own first try, made though its answer was lost (the retry after "cannot be reached").
    const note = result.code === 'DUPLICATE'
      ? { note: 'An order with this email (perhaps your first try, which went through) was already waiting for payment: this is that order. Nothing new was ordered.', whileHeld: true }
      : '';
    // A duplicate of a paid order names no order: the email's order may be one this device saved, shown then.
    const mine = !order && result.code === 'DUPLICATE' && stored.all().find((o) => o.emailTag === emailTag(draft.email));
    // The order made (or found), what was typed is no longer kept for a reload.
    if (order || mine) typed.drop();
    // A tag of the email is kept with the order, not the email.
    if (order) return showOrder({ orderNumber: order.orderNumber, payToken: order.payToken, emailTag: emailTag(draft.email) }, order, note);
    if (mine) return await openSaved(mine, `This email already has order ${mine.orderNumber}, saved on this device: this is that order. Nothing new was ordered.`);
    if (result.field && result.field !== 'email') {
      enterStep('form', { replace: true });
      // Refused against options this page has not seen (staff withdrew a choice while the live update stalled): read
      // them again, so the tiles no longer offer it and the page says what to choose again, as when it is live.
      const { sleeveOptions } = await api.request('OrderPageOptions').catch(() => ({}));
      if (sleeveOptions) form.setOptions(sleeveOptions);
      if (form.values()[result.field] === null && $('#withdrawn').textContent) return $('#withdrawn').focus();
      return form.showServerError(result.field, result.error);
    }
    $('#confirm-error').textContent = result.error;
  } catch (error) {
    $('#confirm-error').textContent = error.message;
  } finally {
    button.disabled = false;
    // Refused (a duplicate, a rule): the pressed button was disabled meanwhile and the body took focus; go on from
    // "Change something", the way forward the error asks for.
    if (!$('#confirm').hidden && document.activeElement === document.body) $('#confirm-edit').focus();
  }
}

$('#confirm-yes').addEventListener('click', createOrder);
// "Change something" is the browser's Back when the confirmation has its own entry, so the two agree.
$('#confirm-edit').addEventListener('click', () => {
  if (history.state?.step === 'confirm') return history.back();
  showStep('form');
  $('#stitchText').focus();
});

/** The options at once and whenever staff change them; a withdrawn choice sends the user back to choose again. */
api.follow('OrderPageOptionsChanged', {}, {
  next: ({ sleeveOptionsChanged: options }) => {
    if (form.setOptions(options) && !$('#confirm').hidden) {
      enterStep('form', { replace: true });
      // Focus goes where the page says what changed (a withdrawn choice), else to the stitch text it now refuses.
      ($('#withdrawn').textContent ? $('#withdrawn') : $('#stitchText')).focus();
    }
  },
});

async function start() {
  const { sleeveOptions } = await api.request('OrderPageOptions');
  form.setOptions(sleeveOptions);
  const kept = formBeforeReload();
  if (kept) {
    // An order was being made when the page reloaded: its form, not an earlier order saved on this device.
    form.restore(kept);
    return enterStep('form', { replace: true });
  }
  // A reload of the form or the confirmation (the tab's entry says which): what was typed, on the step it was on. The
  // confirmation is checked again first (a choice withdrawn meanwhile is chosen again on the form).
  const step = history.state?.step;
  const typedBefore = (step === 'form' || step === 'confirm') && typed.read();
  if (typedBefore) {
    form.restore(typedBefore);
    if (step === 'confirm' && form.review()) return;
    return enterStep('form', { replace: true });
  }
  const mine = stored.read();
  if (!mine?.orderNumber || !mine?.payToken) return enterStep('form', { replace: true });
  const { order } = await api.request('OrderPageOrder', { n: mine.orderNumber, t: mine.payToken });
  if (!order) {
    stored.clear();
    return enterStep('form', { replace: true });
  }
  showOrder(mine, order);
}

start().catch((error) => { $('#load-error').textContent = `The page could not load: ${error.message} Reload to try again.`; });
