/**
 * One order after it was created: the hold deadline and a live countdown (holdCountdown), both ways to pay side
 * by side (the pay page, or the demo card) without choosing for the user, then the status live (orderUpdates)
 * until it is ready, with the pickup instructions. The order's fields are operations/OrderFields.graphql.
 */
import { $, h, holdAnnouncement, minutesAndSeconds, sameOriginImage } from './dom.js';
import { spell } from './rules.js';
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

export function createOrderStatus({ api, onFinished }) {
  let mine = null;
  let stops = [];

  function stopFollowing() {
    for (const stop of stops) stop();
    stops = [];
  }

  function showCountdown(seconds) {
    const first = !$('#countdown').textContent;
    $('#countdown').textContent = minutesAndSeconds(seconds);
    const said = first ? `${minutesAndSeconds(seconds)} left to pay.` : holdAnnouncement(seconds);
    if (said) $('#countdown-announce').textContent = said;
  }

  function render(order) {
    $('#order-number').textContent = order.orderNumber;
    $('#order-message').textContent = order.message;
    const at = STEPS.findIndex(([s]) => s === order.status);
    $('#steps').hidden = at < 0;
    $('#steps').replaceChildren(...STEPS.map(([, label], i) =>
      h('li', { class: i < at ? 'done' : '', 'aria-current': i === at ? 'step' : null }, i < at ? `✓ ${label}` : label)));
    const held = order.status === 'AWAITING_PAYMENT';
    // The ways to pay go away under the user (paid elsewhere, the hold ran out): focus goes to the sentence that says
    // what happened, not to the page's body.
    if (!held && !$('#hold').hidden && $('#hold').contains(document.activeElement)) $('#order-message').focus();
    $('#hold').hidden = !held;
    if (held) {
      $('#hold-until').textContent = order.holdUntilText;
      $('#pay-label').textContent = order.payLabel;
      $('#pay-link').href = payAddress(order.payUrl, mine.payToken);
      if (!$('#countdown').textContent) showCountdown(order.secondsLeft);
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
    $('#order-spelled').textContent = spell(order.order.stitchText);
    $('#new-order').hidden = !FINAL.includes(order.status);
    if (!held) $('#countdown').textContent = '';
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
      next: ({ holdCountdown: tick }) => { if (!tick.final) showCountdown(tick.secondsLeft); },
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
  $('#new-order').addEventListener('click', () => { stopFollowing(); onFinished(); });

  return {
    /** Shows `order` (already read) and follows it; `stored` is the visitor's {orderNumber, payToken}. */
    show(stored, order) {
      stopFollowing();
      mine = stored;
      $('#countdown').textContent = '';
      $('#pay-result').textContent = '';
      render(order);
      if (!FINAL.includes(order.status)) follow();
    },
  };
}
