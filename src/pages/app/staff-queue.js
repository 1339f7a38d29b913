/**
 * The live queue: every order not yet collected or cancelled, one column per status, kept current by the staff
 * `orderEvents` subscription (an event replaces the order it names when its version is newer). One click moves an
 * order forward; the pickup check and cancel open a dialog (staff-dialogs.js). A pointer's click on a card that another
 * change had just moved to where it was pressed does nothing (staff-aim.js): steps go forward only.
 */
import { $, drawSoon, h, statusLabel } from './dom.js';
import { createAimGuard } from './staff-aim.js';

/** The columns, in order: operations/StaffQueue.graphql reads these statuses. */
const COLUMNS = ['AWAITING_PAYMENT', 'RECEIVED', 'IN_PROGRESS', 'READY'];
const DONE = ['COLLECTED', 'CANCELLED'];
/** The one-click step forward from each status (docs/ordering.md#moving-an-order-forward: received → in progress → ready). */
const FORWARD = { RECEIVED: ['IN_PROGRESS', 'Start stitching'], IN_PROGRESS: ['READY', 'Mark ready'] };

/**
 * How long a card whose button was refused a click is marked (`.order.moved`), so staff see the queue changed there,
 * and the note saying so (#queue-moved, over the page: a line above the queue would move every card again) is shown.
 */
const MARK_MS = 6_000;

/** Whether this browser says the queue's changes (#announce-changes), kept across sign-ins: 'off' or 'on'. */
const ANNOUNCE_KEY = 'sleeve.staffAnnounce';

/** Every card has the same buttons: a screen reader's list of buttons needs the order number in each name. */
const which = (order) => h('span', { class: 'sr-only' }, ` #${order.orderNumber}`);

export function createQueue({ api, dialogs }) {
  const orders = new Map();
  /** Cards whose button was just refused a click (order number → the timer that unmarks it): drawn with `.moved`. */
  const marked = new Map();
  /** Where the pointer was aimed (staff-aim.js): a click on a card that had just moved there does nothing. */
  const aim = createAimGuard();

  function card(order) {
    const forward = FORWARD[order.status];
    const { size, font, thread, stitchText } = order.order;
    return h('li', { class: marked.has(order.orderNumber) ? 'order moved' : 'order', id: `order-${order.orderNumber}`, tabindex: -1, dataset: { orderNumber: order.orderNumber, status: order.status } },
      h('div', { class: 'top' }, h('span', { class: 'number' }, order.orderNumber), h('span', { class: 'meta' }, statusLabel(order.status))),
      // dir=auto: a name in a right-to-left script is laid out as itself inside the English card.
      h('div', { class: 'who', dir: 'auto' }, order.name),
      h('div', { class: 'what' }, `${size} · ${font} · ${thread}`),
      // Words in the text, not aria-label: a label on a div without a role is not read (Chromium read the card's stitch
      // text unlabelled; other screen readers drop such labels altogether).
      h('div', { class: 'stitch' }, h('span', { class: 'sr-only' }, 'Stitch text: '), stitchText),
      order.status === 'AWAITING_PAYMENT' && order.holdUntilText ? h('div', { class: 'meta' }, `Held until ${order.holdUntilText}`) : null,
      order.cancelReason ? h('div', { class: 'meta' }, `Cancelled: ${order.cancelReason}`) : null,
      order.collectedBy ? h('div', { class: 'meta' }, `Collected by ${order.collectedBy}`) : null,
      DONE.includes(order.status) ? null : h('div', { class: 'actions' },
        forward ? h('button', { type: 'button', dataset: { action: 'advance' }, onclick: aimed(order, 'advance', () => advance(order, forward[0])) }, forward[1], which(order)) : null,
        order.status === 'READY' ? h('button', { type: 'button', dataset: { action: 'pickup' }, onclick: aimed(order, 'pickup', () => dialogs.pickup(order)) }, 'Hand over…', which(order)) : null,
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel' }, onclick: aimed(order, 'cancel', () => dialogs.cancel(order)) }, 'Cancel…', which(order))));
  }

  function render() {
    const byNumber = [...orders.values()].sort((a, b) => Number(a.orderNumber) - Number(b.orderNumber));
    const focused = document.activeElement?.closest?.('.order');
    const action = document.activeElement?.dataset?.action;
    $('#columns').replaceChildren(...COLUMNS.map((status) => {
      const list = byNumber.filter((o) => o.status === status);
      const titleId = `column-${status}`;
      return h('section', { class: 'column', 'aria-labelledby': titleId, dataset: { status } },
        // The count's word hidden, not an aria-label on the span (see card): the heading reads "Received 2 orders".
        h('h2', { id: titleId }, statusLabel(status), h('span', { class: 'meta' }, String(list.length)), h('span', { class: 'sr-only' }, list.length === 1 ? ' order' : ' orders')),
        list.length ? h('ul', { class: 'orders' }, list.map(card)) : h('p', { class: 'empty' }, 'None'));
    }));
    const done = byNumber.filter((o) => DONE.includes(o.status)).reverse();
    $('#done-count').textContent = String(done.length);
    $('#done-list').replaceChildren(...done.map(card));
    // A redraw replaces every card: the keyboard user stays on the same button of the same order, not on its card
    // (a screen reader would read the whole card again) nor on the page's body.
    if (focused) returnFocus(focused.dataset.orderNumber, action);
  }

  /**
   * The click handler of `order`'s `action` button: runs `act` unless the press that clicked was stray. A click by
   * Enter or Space (detail 0) is the keyboard's, and acts at once.
   */
  function aimed(order, action, act) {
    return (event) => {
      if (aim.refuses(order, action, event)) return refuse(order);
      $('#queue-moved').textContent = '';
      act();
    };
  }

  /** Says why a click did nothing, and marks the card that had just moved under the pointer for a moment. */
  let noteTimer = null;
  function refuse(order) {
    const n = order.orderNumber;
    $('#queue-moved').textContent = `Order ${n} had just moved under the pointer, so that click did nothing. Check the order, then click again.`;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => { $('#queue-moved').textContent = ''; }, MARK_MS);
    clearTimeout(marked.get(n));
    marked.set(n, setTimeout(() => {
      marked.delete(n);
      document.getElementById(`order-${n}`)?.classList.remove('moved');
    }, MARK_MS));
    document.getElementById(`order-${n}`)?.classList.add('moved');
  }

  /**
   * Puts focus back on order `n`'s `action` button (advance, pickup, cancel) after its card was drawn anew, on the
   * card when that button is gone (the order moved on), or on the queue's title when the card is not shown.
   */
  function returnFocus(n, action) {
    const card = document.getElementById(`order-${n}`);
    const button = action ? card?.querySelector(`button[data-action="${action}"]`) : null;
    // After a tap or a click, focus follows without scrolling: on a phone the page scrolled down to the order's new
    // column, and a second tap landed on whatever that brought under the finger. The keyboard's focus is kept in view.
    const options = { preventScroll: aim.pointing() };
    if (button) button.focus(options);
    else (card?.checkVisibility() ? card : $('#queue-title')).focus(options);
  }

  /** Orders whose step forward is on its way: a double tap sent it twice, and the second came back as an error. */
  const advancing = new Set();

  async function advance(order, status) {
    if (advancing.has(order.orderNumber)) return;
    advancing.add(order.orderNumber);
    $('#queue-error').textContent = '';
    try {
      const data = await ownChange(order.orderNumber, () => api.request('AdvanceOrder', { n: order.orderNumber, s: status }));
      upsert(data.advanceOrder, true);
    } catch (error) {
      $('#queue-error').textContent = error.message;
    } finally {
      advancing.delete(order.orderNumber);
    }
  }

  /**
   * Each change redraws the whole queue, so the stream's changes are drawn together (dom.js's drawSoon): drawn one
   * by one, 200 orders made ready in a burst left a console six times slower than this machine a minute behind. The
   * answer to a staff action (`now`) is drawn at once: the dialog that asked then puts focus on what was drawn.
   */
  const renderSoon = drawSoon(render);

  /**
   * "Announce changes", on unless this browser turned it off: at event volume the announcements are near-continuous
   * speech, and a staff member with a screen reader working the queue by hand may want them off.
   */
  const announcing = $('#announce-changes');
  // Storage a browser refuses (blocked, private mode) throws: the setting then lasts as long as the page.
  announcing.checked = stored(() => localStorage.getItem(ANNOUNCE_KEY)) !== 'off';
  announcing.addEventListener('change', () => {
    stored(() => localStorage.setItem(ANNOUNCE_KEY, announcing.checked ? 'on' : 'off'));
    if (announcing.checked) return;
    // Off: what was gathered is not said a second later either.
    clearTimeout(sayTimer);
    sayTimer = null;
    heard = [];
  });

  /**
   * What other desks and the hold change, said to a screen reader (a polite live region): gathered for a second, so
   * a burst is one sentence, not a queue of them. The queue's columns changed silently before. This desk's own
   * changes are not said (see ownChange).
   */
  let heard = [];
  let sayTimer = null;
  function announce(order) {
    if (!announcing.checked) return;
    heard.push(`${order.orderNumber} ${statusLabel(order.status).toLowerCase()}`);
    sayTimer ??= setTimeout(() => {
      const [first, ...rest] = heard;
      $('#queue-announce').textContent = rest.length === 0 ? `Order ${first}.`
        : `Orders ${[first, ...rest.slice(0, 4)].join(', ')}${rest.length > 4 ? `, and ${rest.length - 4} more` : ''}.`;
      heard = [];
      sayTimer = null;
    }, 1_000);
  }

  /**
   * This desk's changes on their way, by order number. orderEvents often brings the copy of a change before the
   * mutation's answer, and it was said as another desk's ("Orders 1040 in progress, 1040 ready, …" to a keyboard user
   * moving orders on): what it says of such an order waits for the answer, and only what is newer than the answer, or
   * everything when the change was refused (another desk got there first), is said.
   */
  const own = new Map();

  /** Runs `request` (a mutation whose answer's one field is the order `n`) as this desk's own change of order `n`. */
  async function ownChange(n, request) {
    const entry = own.get(n) ?? { requests: 0, held: [], answered: -Infinity };
    own.set(n, entry);
    entry.requests += 1;
    try {
      const data = await request();
      entry.answered = Math.max(entry.answered, Object.values(data ?? {})[0]?.version ?? -Infinity);
      return data;
    } finally {
      entry.requests -= 1;
      if (entry.requests === 0) {
        own.delete(n);
        for (const order of entry.held) if (order.version > entry.answered) announce(order);
      }
    }
  }

  function upsert(order, now = false) {
    const known = orders.get(order.orderNumber);
    if (known && known.version > order.version) return;
    orders.set(order.orderNumber, order);
    if (now) render();
    else renderSoon();
  }

  /**
   * Every order, in pages of 50 (StaffQueue.graphql: the query cost limit refuses 200 orders with these fields in one
   * answer); the collected and cancelled ones too, so "Collected and cancelled" counts them from the first load.
   */
  async function load() {
    let after = null;
    do {
      const data = await api.request('StaffQueue', { after });
      for (const { node } of data.orders.edges) if (!orders.has(node.orderNumber) || orders.get(node.orderNumber).version < node.version) orders.set(node.orderNumber, node);
      after = data.orders.pageInfo.hasNextPage ? data.orders.pageInfo.endCursor : null;
    } while (after);
    render();
  }

  /** Brings order `n` into view and gives it focus (deep link `#/orders/{n}`, the find box); false when unknown. */
  function focusOrder(n) {
    const element = document.getElementById(`order-${n}`);
    if (!element) return false;
    if (DONE.includes(element.dataset.status)) $('#done').open = true;
    for (const other of document.querySelectorAll('.order.highlight')) other.classList.remove('highlight');
    element.classList.add('highlight');
    element.scrollIntoView({ block: 'center' });
    element.focus();
    return true;
  }

  return {
    /** Subscribes first, then reads the queue, so no change between the two is missed. */
    async start() {
      api.follow('StaffOrderEvents', {}, {
        next: ({ orderEvents: order }) => {
          const known = orders.get(order.orderNumber);
          if (!known || (known.version < order.version && known.status !== order.status)) {
            const waiting = own.get(order.orderNumber);
            if (waiting) waiting.held.push(order);
            else announce(order);
          }
          upsert(order);
        },
      });
      await load();
    },
    upsert,
    ownChange,
    focusOrder,
    returnFocus,
    /**
     * After a lost connection: orderEvents sent while it was down are gone, so read the queue again. Orders not
     * in it any more (collected or cancelled meanwhile) leave the columns.
     */
    async reload() {
      for (const [n, order] of orders) if (COLUMNS.includes(order.status)) orders.delete(n);
      await load();
    },
  };
}

/** What `use` of localStorage gives, or null where the browser refuses storage. */
function stored(use) {
  try {
    return use();
  } catch {
    return null;
  }
}
