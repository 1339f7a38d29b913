/**
 * One order after it was created: the hold deadline and a live countdown (holdCountdown), both ways to pay side
 * by side (the pay page, or the demo card) without choosing for the user, then the status live (orderUpdates)
 * until it is ready, with the pickup instructions. The order's fields are operations/OrderFields.graphql.
 *
 * The countdown runs from a local deadline (hold-countdown.js, as the pay page's does), and the server's ticks only
 * correct it.
 */
import { $, h, orderTitle, retryDelay, sameOriginImage, writeSpelled, writeText } from './dom.js';
import { createHoldCountdown, heldSentence } from './hold-countdown.js';
import { previewLabel } from './sleeve-drawing.js';

const STEPS = [
  ['AWAITING_PAYMENT', 'Reserved'],
  ['RECEIVED', 'Paid'],
  ['IN_PROGRESS', 'Being stitched'],
  ['READY', 'Ready for pickup'],
  ['COLLECTED', 'Collected'],
];
const FINAL = ['COLLECTED', 'CANCELLED'];

/** payUrl carries the payToken when the caller presented it; add it when a stream's copy does not. */
function payAddress(payUrl, payToken) {
  const url = new URL(payUrl, location.href);
  if (!url.searchParams.has('t')) url.searchParams.set('t', payToken);
  return url.href;
}

/**
 * `onFinished`: "Order another sleeve" on a collected or cancelled order (nothing left to follow or pay);
 * `onAnother`: the same on any other order, which stays saved on this device.
 */
export function createOrderStatus({ api, onFinished, onAnother }) {
  let mine = null;
  let stops = [];
  let status = null;
  /** A sentence above the order (order-note); `noteWhileHeld`: true of it only while the order waits for payment. */
  let note = '';
  let noteWhileHeld = false;
  /** Reads of the order in a row at 0:00 that did not end the hold here (still held, or no answer): each waits longer. */
  let rereads = 0;
  /** The tab's title for the order shown ("Order 1003 — awaiting payment"), set while the order is the step shown. */
  let title = '';
  // At 0:00 the order is read again (orderUpdates brings the cancellation too, but not while the socket is down): a
  // second later, then after 2, 4… s up to 30 s while the server still holds it or does not answer.
  const countdown = createHoldCountdown({
    display: $('#countdown'),
    announce: $('#countdown-announce'),
    readAgain,
    readAgainAfter: () => retryDelay(rereads++, { firstMs: 1000, maxMs: 30_000, jitter: false }),
  });

  function stopFollowing() {
    for (const stop of stops) stop();
    stops = [];
  }

  async function readAgain() {
    const reading = mine;
    const data = await api.request('OrderPageOrder', { n: reading.orderNumber, t: reading.payToken }).catch(() => null);
    // Another order shown meanwhile, or this one's countdown ended (orderUpdates): nothing to do with this answer.
    if (mine !== reading || !countdown.running) return;
    // Still held, render restarts the countdown at the server's secondsLeft (0:00: asks again, later); no answer,
    // 0:00 again, and the same.
    if (data?.order) render(data.order);
    else countdown.tick();
  }
  // Back online at 0:00: the truth now, not after the rest of a wait.
  window.addEventListener('online', () => { if (countdown.running && countdown.ranOut) readAgain(); });

  function render(order) {
    status = order.status;
    $('#order-number').textContent = order.orderNumber;
    const held = order.status === 'AWAITING_PAYMENT';
    // "Already waiting for payment" is untrue once it is paid or cancelled: it goes.
    const noted = note !== '' && (held || !noteWhileHeld);
    // Both are live regions: the same text written again (the subscription's first event repeats the read) is not.
    writeText($('#order-note'), noted ? note : '');
    $('#order-note').hidden = !noted;
    writeText($('#order-message'), held ? heldSentence(order) : order.message);
    title = orderTitle(order.orderNumber, order.status);
    if (!$('#order').hidden) document.title = title;
    const at = STEPS.findIndex(([s]) => s === order.status);
    $('#steps').hidden = at < 0;
    $('#steps').replaceChildren(...STEPS.map(([, label], i) =>
      h('li', { class: i < at ? 'done' : '', 'aria-current': i === at ? 'step' : null }, i < at ? `✓ ${label}` : label)));
    // The ways to pay go away under the user (paid elsewhere, the hold ran out): focus goes to the sentence that says
    // what happened, not to the page's body.
    if (!held && !$('#hold').hidden && $('#hold').contains(document.activeElement)) $('#order-message').focus();
    $('#hold').hidden = !held;
    if (held) {
      $('#hold-until').textContent = order.holdUntilText;
      $('#pay-label').textContent = order.payLabel;
      $('#pay-link').href = payAddress(order.payUrl, mine.payToken);
      // The hold's end never moves: set once (a later copy of the order would only move it by the time it took to
      // arrive), and again only once it ran out here while the server, which decides, still holds the order.
      if (countdown.ranOut) countdown.start(order.secondsLeft);
      if (order.secondsLeft > 0) rereads = 0;
    }
    $('#pickup').hidden = order.status !== 'READY';
    $('#pickup-number').textContent = order.orderNumber;
    for (const k of ['size', 'font', 'thread']) $(`#order-${k}`).textContent = order.order[k];
    $('#order-text').textContent = order.order.stitchText;
    const image = sameOriginImage(order.previewImage);
    if ($('#order-image').getAttribute('src') !== image) {
      $('#order-image').src = image;
      $('#order-image').alt = previewLabel({ ...order.order, text: order.order.stitchText });
    }
    writeSpelled($('#order-spelled'), order.order.stitchText);
    if (!held) countdown.stop();
    if (FINAL.includes(order.status)) stopFollowing();
  }

  function follow() {
    const vars = { n: mine.orderNumber, t: mine.payToken };
    stops.push(api.follow('OrderPageUpdates', vars, {
      next: (data) => render(data.orderUpdates),
    }));
    stops.push(api.follow('OrderPageCountdown', vars, {
      // The final tick (paid or cancelled) is left to orderUpdates, which brings the new status and texts. An
      // order no longer held may be refused a countdown: nothing to retry then.
      next: ({ holdCountdown: t }) => { if (!t.final) countdown.correct(t.secondsLeft); },
      error: () => {},
    }));
  }

  async function payWithDemoCard() {
    const button = $('#pay-demo');
    button.disabled = true;
    $('#pay-result').textContent = 'Paying with the demo card…';
    try {
      const data = await api.request('PayWithDemoCard', { n: mine.orderNumber, t: mine.payToken });
      const result = data.payOrder;
      $('#pay-result').textContent = result.message ?? result.error;
      $('#pay-result').className = result.message ? 'ok' : 'error';
      if (result.order) render(result.order);
    } catch (error) {
      $('#pay-result').textContent = error.message;
      $('#pay-result').className = 'error';
    } finally {
      button.disabled = false;
      // Disabled while paying, the button lost focus to the body: back to it, or, paid, to the order's sentence.
      if (document.activeElement === document.body) ($('#hold').hidden ? $('#order-message') : button).focus();
    }
  }

  $('#pay-demo').addEventListener('click', payWithDemoCard);
  // Any order, not only a finished one: a device (a kiosk, a borrowed phone) showing a saved order still held or paid
  // had no way to the form.
  $('#new-order').addEventListener('click', () => {
    if (!FINAL.includes(status)) return onAnother();
    stopFollowing();
    onFinished();
  });

  return {
    /**
     * Shows `order` (already read) and follows it; `stored` is the visitor's {orderNumber, payToken}. `note`, a
     * sentence above it (none: hidden); `whileHeld`, shown only while the order waits for payment.
     */
    show(stored, order, { note: sentence = '', whileHeld = false } = {}) {
      stopFollowing();
      mine = stored;
      note = sentence;
      noteWhileHeld = whileHeld;
      countdown.stop();
      rereads = 0;
      $('#pay-result').textContent = '';
      render(order);
      if (!FINAL.includes(order.status)) follow();
    },
    /** Puts the order's title on the tab (the order step is shown again). */
    showTitle() {
      document.title = title;
    },
    /** Stops following the order shown (it was forgotten on this device). */
    stop() {
      stopFollowing();
      countdown.stop();
    },
  };
}
