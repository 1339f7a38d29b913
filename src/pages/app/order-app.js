/**
 * The ordering page (issue 8): the form, the confirmation that spells the stitch text back, and the order view.
 * Options are followed live (sleeveOptionsChanged), so a choice withdrawn during the event disappears. A returning
 * visitor on the same device sees their order again: {orderNumber, payToken} stay in localStorage (the payToken
 * is the visitor's own secret for their own order).
 */
import { $, showConnection } from './dom.js';
import { connect } from './graphql.js';
import { createOrderForm } from './order-form.js';
import { createOrderStatus } from './order-status.js';
import { spell } from './rules.js';
import { previewLabel, svgDataUrl } from './sleeve-drawing.js';

const STORAGE_KEY = 'sleeve.order';

const api = connect({ onState: showConnection });

const stored = {
  read: () => { try { return JSON.parse(localStorage.getItem(STORAGE_KEY)); } catch { return null; } },
  write: (value) => localStorage.setItem(STORAGE_KEY, JSON.stringify(value)),
  clear: () => localStorage.removeItem(STORAGE_KEY),
};

let draft = null;

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
  $('#confirm').hidden = step !== 'confirm';
  $('#order').hidden = step !== 'order';
  $('#lead').hidden = step === 'order';
  $('#title').textContent = step === 'order' ? 'Your sleeve order' : 'Order an embroidered laptop sleeve';
  if (step !== 'form') $(`#${step}`).focus();
}

const form = createOrderForm({
  onReview(values) {
    draft = values;
    for (const k of ['size', 'font', 'thread', 'name', 'email']) $(`#confirm-${k}`).textContent = values[k];
    $('#confirm-text').textContent = values.stitchText;
    $('#confirm-image').src = svgDataUrl(form.previewSvg(values));
    $('#confirm-image').alt = previewLabel({ ...values, text: values.stitchText });
    $('#confirm-spelled').textContent = spell(values.stitchText);
    $('#confirm-error').textContent = '';
    enterStep('confirm');
  },
});

const status = createOrderStatus({
  api,
  onFinished() {
    stored.clear();
    enterStep('form', { replace: true });
    $('#stitchText').focus();
  },
});

/** `note`: a sentence above the order, e.g. that it is the one already held for this email (none: hidden). */
function showOrder(mine, order, note = '') {
  stored.write(mine);
  status.show(mine, order);
  $('#order-note').textContent = note;
  $('#order-note').hidden = !note;
  enterStep('order', { replace: true });
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
    // Document 1 hands a held duplicate's token back; the page says so rather than show it as if it were new.
    const note = result.code === 'DUPLICATE' ? 'An order with this email was already waiting for payment: this is that order. Nothing new was ordered.' : '';
    if (order) return showOrder({ orderNumber: order.orderNumber, payToken: order.payToken }, order, note);
    if (result.field && result.field !== 'email') {
      enterStep('form', { replace: true });
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
