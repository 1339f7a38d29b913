/**
 * Where a staff member's pointer was aimed, for the live queue (staff-queue.js). Every change redraws the queue's
 * columns, so a card moves under a pointer that is still; a press on a button that another change had just brought
 * to the pressed spot was aimed at what was there before, and is refused. The keyboard is never refused.
 */
import { $ } from './dom.js';

/**
 * A press on a button that came to the pressed spot less than SETTLE_MS before, where another order's card or another
 * button was, was aimed at what was there: a person sees a change and aims anew in about half a second. POINTER_REST_MS:
 * a pointer still for this long (or pressed) has ended a movement; the next movement is a new aim.
 */
const SETTLE_MS = 700;
const POINTER_REST_MS = 100;

export function createAimGuard() {
  /*
   * Where a pointer was aimed. Every change redraws the columns, so a card moves under a pointer that is still: the
   * order above it made ready by another desk put the next order's "Mark ready" where the one aimed at had been, and
   * the second click of a double click landed on the order that took the first one's place (an outside review, in
   * Chromium: both were moved forward, and steps go forward only). So a press is refused when another order's card,
   * or another button, was at that spot less than SETTLE_MS before, unless the pointer came onto the card only after
   * it had arrived (a hand moves to what it sees). The keyboard is never refused: it acts on the focused button, which
   * names its order and stays on that order across redraws (returnFocus).
   *
   * `layouts`: the columns' cards and buttons as shown (page coordinates), oldest first, each with when it was first
   * shown, kept while it was on screen within SETTLE_MS. Anything in the console that changes (a redraw, a line of
   * text above the queue) or a resized window has the layout read again at the next frame, or at a press before it.
   */
  let layouts = [];
  /** When the layout changed since it was last read (null: it has not). */
  let changedAt = null;
  const controlKey = (element, button) => `${element.dataset.orderNumber} ${element.dataset.status} ${button.dataset.action}`;

  function layoutChanged() {
    if (changedAt !== null) return;
    changedAt = performance.now();
    requestAnimationFrame(readLayout);
  }
  new MutationObserver(layoutChanged).observe($('#console'), { subtree: true, childList: true, characterData: true, attributes: true });
  window.addEventListener('resize', layoutChanged);

  function readLayout() {
    if (changedAt === null) return;
    const at = changedAt;
    changedAt = null;
    const controls = [];
    for (const element of $('#columns').querySelectorAll('.order')) {
      for (const part of [element, ...element.querySelectorAll('button[data-action]')]) {
        const r = part.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue; // the queue is not shown
        controls.push({ n: element.dataset.orderNumber, key: part === element ? null : controlKey(element, part),
          left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY });
      }
    }
    const now = performance.now();
    layouts = layouts.filter((layout, i) => (layouts[i + 1]?.at ?? at) > now - SETTLE_MS);
    layouts.push({ at, controls });
  }

  const inside = (box, point) => point.x >= box.left && point.x < box.right && point.y >= box.top && point.y < box.bottom;

  /** The button at `point` in `layout`, else the card there, else null. */
  function occupant(layout, point) {
    let found = null;
    for (const control of layout.controls) {
      if (!inside(control, point)) continue;
      found = control;
      if (control.key) break;
    }
    return found;
  }

  /** The pointer (mouse or pen) and its last movement: where and when it set off, and when it last moved (event time). */
  let pointer = null;
  let movedAtEvent = -Infinity;
  let setOffFrom = null;
  let setOffAt = -Infinity;
  document.addEventListener('pointermove', (event) => {
    if (event.pointerType === 'touch') return;
    const now = performance.now();
    // Every movement the browser gathered into this event: a long draw holds them back, and they came after it
    // together, as if a pointer moving all along had set off afresh.
    const moves = event.getCoalescedEvents?.() ?? [];
    for (const move of moves.length ? moves : [event]) {
      const at = { x: move.clientX + scrollX, y: move.clientY + scrollY };
      if (pointer && at.x === pointer.x && at.y === pointer.y) continue;
      if (move.timeStamp - movedAtEvent > POINTER_REST_MS) {
        setOffFrom = pointer;
        setOffAt = now - (event.timeStamp - move.timeStamp);
      }
      movedAtEvent = move.timeStamp;
      pointer = at;
    }
  }, { capture: true, passive: true });

  /** The last press on one of the queue's buttons: which button, and whether it landed on one it was not aimed at. */
  let press = null;
  /** Whether the last input was a pointer's (a press) rather than a key: returnFocus then scrolls nothing. */
  let pointing = false;
  document.addEventListener('keydown', () => { pointing = false; }, { capture: true });
  document.addEventListener('pointerdown', (event) => {
    pointing = true;
    const point = { x: event.clientX + scrollX, y: event.clientY + scrollY };
    const button = event.target.closest?.('#columns .order button[data-action]');
    press = button ? { key: controlKey(button.closest('.order'), button), stray: stray(button, point, event.pointerType) } : null;
    // A press ends a movement: the next one is a new aim.
    movedAtEvent = -Infinity;
    pointer = point;
  }, { capture: true });

  /** Whether a press at `point` on `button` was aimed at something else that was there a moment before. */
  function stray(button, point, pointerType) {
    readLayout();
    const element = button.closest('.order');
    const key = controlKey(element, button);
    const same = (there) => there && (there.key === key || (there.key === null && there.n === element.dataset.orderNumber));
    const now = performance.now();
    // Since when this button (or its card) has been at the point: the newest layouts that had it there.
    let i = layouts.length - 1;
    let since = now;
    for (; i >= 0 && same(occupant(layouts[i], point)); i--) since = layouts[i].at;
    // Not where the last layout read has it: moved by something unseen (no sign of when), so taken as aimed.
    if (i === layouts.length - 1) return false;
    // Before that: another order or button there, on screen within SETTLE_MS?
    for (; i >= 0; i--) {
      if ((layouts[i + 1]?.at ?? now) <= now - SETTLE_MS) return false;
      const there = occupant(layouts[i], point);
      if (!there || same(there)) continue;
      const box = element.getBoundingClientRect();
      const card = { left: box.left + scrollX, top: box.top + scrollY, right: box.right + scrollX, bottom: box.bottom + scrollY };
      // A touch gives no sign of when it was aimed; a pointer that set off towards this card after it arrived was
      // aimed at it (a jiggle inside the card is no new aim).
      const cameAfter = pointerType !== 'touch' && setOffAt > since && !(setOffFrom && inside(card, setOffFrom));
      return !cameAfter;
    }
    return false;
  }

  return {
    /**
     * Whether the click `event` on `order`'s `action` button came from a press aimed at something else (a stray
     * press, or one that landed on another button than the one clicked). A click by Enter or Space (detail 0) is the
     * keyboard's, never refused.
     */
    refuses(order, action, event) {
      const pressed = event.detail === 0 ? null : press;
      press = null;
      return !!pressed && (pressed.stray || pressed.key !== `${order.orderNumber} ${order.status} ${action}`);
    },
    /** Whether the last input was a pointer's rather than a key's: focus then follows without scrolling. */
    pointing: () => pointing,
  };
}
