/**
 * The hold's countdown, on the ordering page (order-status.js) and the pay page (pay.js): one clock for both, so the
 * two pages an attendee may hold side by side count alike.
 *
 * It runs from a local deadline (the order's secondsLeft when read), not from the server's ticks: written from the
 * ticks alone it froze whenever the socket was down (0:55 shown with 0:25 left, then a jump to 0:13). secondsLeft is
 * whole seconds (the hold ends 0–1 s after it says), so the deadline is the middle of that second, and a tick comes
 * just after each whole second passes. At 0:00 the page asks the server, which decides, after `readAgainAfter()`
 * milliseconds: never at once and over and over while the server still says 0 seconds left.
 *
 * The deadline is kept on the monotonic clock (performance.now), which a phone setting its time does not move.
 * A figure from the server is as old as the time it took to arrive, so it only ever says the hold ends no later than
 * that: `correct` moves the deadline earlier, never later. A link that drops for a few seconds and comes back delivers
 * the ticks it held all at once, the oldest first, and following them counted back up by the outage (0:52, then 0:56).
 *
 * The timer itself is silent (role=timer); the time left is said in `announce` when the countdown appears, then now
 * and then (holdAnnouncement), in words ("1 minute 39 seconds"), while the timer shows m:ss.
 */
import { holdAnnouncement, minutesAndSeconds, spokenDuration, writeText } from './dom.js';

/**
 * A held order in the pages' own words. The order's `message` is written for whoever shows an order anywhere (an
 * agent above all) and tells them how to pay, "on the payment page ($1.00, refunded), or with the demo card": on the
 * pay page that is the page itself, and on the ordering page the two ways to pay follow right below it. The deadline
 * is said once, beside the countdown (`payBefore`, and the ordering page's markup).
 */
export const heldSentence = (order) => `Order ${order.orderNumber} is reserved for you, and not paid yet.`;
/** The pay page's line beside the countdown: the ordering page's markup says the same (order-page.ts, #hold). */
export const payBefore = (holdUntilText) => `Pay before ${holdUntilText}, or the order is cancelled.`;

export function createHoldCountdown({ display, announce, readAgain, readAgainAfter }) {
  /** When the hold ends by this page's clock; 0: no countdown running. */
  let deadline = 0;
  let timer = 0;
  const msLeft = () => Math.max(0, deadline - performance.now());

  function tick() {
    clearTimeout(timer);
    const ms = msLeft();
    const left = Math.floor(ms / 1000);
    const first = !display.textContent;
    display.textContent = minutesAndSeconds(left);
    const said = first ? `${spokenDuration(left)} left to pay.` : holdAnnouncement(left);
    if (said) announce.textContent = said;
    timer = left > 0 ? setTimeout(tick, (ms % 1000) + 10) : setTimeout(readAgain, readAgainAfter());
  }

  return {
    /** (Re)starts at `secondsLeft`, the server's figure. */
    start(secondsLeft) {
      deadline = performance.now() + secondsLeft * 1000 + 500;
      tick();
    },
    /**
     * The hold ended or another order is shown: no timer left, nothing displayed (the next start is announced), and
     * nothing left to read either: the pay page's announcement is not inside a hidden box, and a paid or cancelled
     * page still read "1:38 left to pay." to a screen reader going through it.
     */
    stop() {
      clearTimeout(timer);
      deadline = 0;
      display.textContent = '';
      writeText(announce, '');
    },
    /**
     * A tick of the server's: moves the deadline earlier when the server has less time left by more than a second
     * (a page that was asleep, or a read that took long to arrive); a figure with more time left is an old one.
     */
    correct(secondsLeft) {
      if (deadline !== 0 && Math.floor(msLeft() / 1000) - secondsLeft > 1) this.start(secondsLeft);
    },
    /** 0:00 shown again now, and the server asked again later (a read at 0:00 that got no answer). */
    tick,
    /** A countdown is running (it may be at 0:00, waiting for the server). */
    get running() {
      return deadline !== 0;
    },
    /** Not running, or run out here: the next copy of the order held by the server (re)starts it. */
    get ranOut() {
      return deadline <= performance.now();
    },
  };
}
