/**
 * The two questions staff answer in a dialog: the pickup check (type the collector's first and last name, see
 * match or mismatch as it is typed, then mark collected; the server decides, and refuses a mismatch) and cancel
 * with a reason. Native <dialog>: focus moves in, Escape closes, focus returns to the button that opened it, or,
 * when the live queue drew that button anew while the dialog was open, to its successor (staff-queue.js returnFocus).
 */
import { $, createPausedAnnouncer } from './dom.js';
import { collectorMatches } from './rules.js';

/** `ownChange(n, request)`: runs a change of order n as this desk's own (staff-queue.js: not said as another desk's). */
export function createDialogs({ api, onChanged, returnFocus, ownChange = (n, request) => request() }) {
  let current = null;
  let opener = null;

  function open(dialog, order, first) {
    current = order;
    opener = document.activeElement?.dataset?.action ?? null;
    for (const error of dialog.querySelectorAll('.error')) error.textContent = '';
    dialog.showModal();
    first.value = '';
    first.removeAttribute('aria-invalid');
    first.focus();
  }

  /**
   * Runs the trusted mutation `name` (CollectOrder, CancelOrder: each answers the order's StaffOrderFields). A refusal
   * marks `field`, the dialog's one input, at fault (its error is among what describes it) and puts focus back on it.
   */
  async function submit(dialog, errorBox, name, variables, field) {
    const button = dialog.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const data = await ownChange(current.orderNumber, () => api.request(name, variables));
      onChanged(Object.values(data)[0]);
      dialog.close();
      // The card that opened the dialog was drawn anew: keep the keyboard user on it, or on the queue when the
      // order has left it (collected, cancelled).
      returnFocus(current.orderNumber, null);
    } catch (error) {
      errorBox.textContent = error.message;
      field.setAttribute('aria-invalid', 'true');
    } finally {
      button.disabled = false;
      if (dialog.open && document.activeElement === document.body) field.focus();
    }
  }

  for (const id of ['#collector', '#cancel-reason']) $(id).addEventListener('input', () => $(id).removeAttribute('aria-invalid'));

  /**
   * Match or mismatch is shown at once, and said (#collector-said) only once typing pauses or the field is left:
   * said at every keystroke, a mismatch was spoken seven times while a name was typed (dom.js).
   */
  const matchSaid = createPausedAnnouncer($('#collector-said'));
  $('#collector').addEventListener('input', () => {
    const typed = $('#collector').value;
    const match = $('#collector-match');
    if (typed.trim() === '') {
      match.textContent = '';
      match.className = 'match';
      return matchSaid.clear();
    }
    const ok = collectorMatches(current.name, typed);
    match.textContent = ok ? '✓ Match: first and last name agree with the order.' : '✗ Mismatch: this is not the name on the order.';
    match.className = `match ${ok ? 'yes' : 'no'}`;
    matchSaid.update(ok ? 'Match: first and last name agree with the order.' : 'Mismatch: this is not the name on the order.');
  });
  $('#collector').addEventListener('blur', () => matchSaid.flush());

  $('#pickup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    $('#pickup-error').textContent = '';
    // What the server answers is said now (collected, or the refusal): not a match said after it.
    matchSaid.clear();
    submit($('#pickup-dialog'), $('#pickup-error'), 'CollectOrder', { n: current.orderNumber, c: $('#collector').value }, $('#collector'));
  });

  $('#cancel-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const reason = $('#cancel-reason').value.trim();
    if (!reason) {
      $('#cancel-error').textContent = 'Give a reason, for the staff record (the attendee is told only that staff cancelled the order).';
      $('#cancel-reason').setAttribute('aria-invalid', 'true');
      return $('#cancel-reason').focus();
    }
    submit($('#cancel-dialog'), $('#cancel-error'), 'CancelOrder', { n: current.orderNumber, r: reason }, $('#cancel-reason'));
  });

  // Closed without an answer (Escape, Close): the browser returns focus to the opener, unless a live redraw replaced
  // it meanwhile; focus then stays on the closed dialog's field, out of sight, and falls to the page's body.
  for (const dialog of [$('#pickup-dialog'), $('#cancel-dialog')]) {
    dialog.addEventListener('close', () => {
      const lost = !document.activeElement || document.activeElement === document.body || dialog.contains(document.activeElement);
      if (current && lost) returnFocus(current.orderNumber, opener);
    });
  }

  for (const close of document.querySelectorAll('dialog [data-close]')) {
    close.addEventListener('click', () => close.closest('dialog').close());
  }

  return {
    pickup(order) {
      $('#pickup-number').textContent = order.orderNumber;
      $('#collector-match').textContent = '';
      $('#collector-match').className = 'match';
      matchSaid.clear();
      open($('#pickup-dialog'), order, $('#collector'));
    },
    cancel(order) {
      $('#cancel-number').textContent = order.orderNumber;
      open($('#cancel-dialog'), order, $('#cancel-reason'));
    },
  };
}
