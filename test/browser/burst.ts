/**
 * The burst of the live screens' tests (pickup-board-burst, staff-console-burst): BURST orders made ready within a
 * second or two through the services, on a page whose CPU is throttled (Chrome's own throttling, as on a cheap
 * display stick or an old laptop). The screen must end on the newest state having drawn the stream's changes
 * together, not one by one: a screen that draws each change in turn falls behind by the sum of every draw (the staff
 * console showed the last of 200 a minute late). What is counted is how often it drew, not how long it took: a
 * catch-up time measured on shared CI cores failed a run with a screen that kept up (19 s against a 15 s limit), and
 * speed is the bench's business. dom.js's drawSoon, which does the drawing together, has its own test
 * (draw-soon.test.ts).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LiveServer } from '../support/live-server.ts';
import { readyOrdersUpTo } from './screens.ts';

export const BURST = 200;
/** How much slower the page's scripts and layout run than on this machine. */
const CPU_SLOWDOWN = 6;
/**
 * At most one draw for this many of the stream's changes. Drawn together on the throttled page, a burst of 200 made
 * 4–6 draws of the board for 200 changes and 17–21 of the queue for 600; drawn in turn, one per change. (The board's
 * stream may send fewer than one board per order: a board read after a change can show later ones too.)
 */
const CHANGES_PER_DRAW = 3;

export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/**
 * Counts the subscriptions' `next` messages the page receives over graphql-ws, from any socket it opens after
 * this call: call it before the page is opened.
 */
export function countChanges(page: Page): () => number {
  let changes = 0;
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && (JSON.parse(payload) as { type?: string }).type === 'next') changes += 1;
    });
  });
  return () => changes;
}

/**
 * Makes BURST orders ready, then waits until `shown()` gives `expected`, and checks that the page drew the element
 * at `drawn` (the board, the queue) far fewer times than it received changes. A draw is one task that changed the
 * element's children: a MutationObserver is called once for each. The poll's long timeout only guards against a hang.
 * Returns the orders' numbers in the order they became ready.
 */
export async function burstUntilShown(
  live: LiveServer,
  page: Page,
  screen: { drawn: string; shown: () => Promise<unknown>; expected: unknown; changes: () => number },
): Promise<string[]> {
  await page.evaluate((selector) => {
    const counted = window as unknown as { draws: number };
    counted.draws = 0;
    new MutationObserver(() => { counted.draws += 1; }).observe(document.querySelector(selector)!, { childList: true, subtree: true });
  }, screen.drawn);
  const changesBefore = screen.changes();
  const ready: string[] = [];
  await readyOrdersUpTo(live.gateway.services, ready, BURST, () => 'Grace Hopper');
  await expect.poll(screen.shown, { timeout: 90_000 }).toBe(screen.expected);
  const changes = screen.changes() - changesBefore;
  const draws = await page.evaluate(() => (window as unknown as { draws: number }).draws);
  expect(draws, `draws of ${screen.drawn} for ${changes} changes`).toBeLessThanOrEqual(changes / CHANGES_PER_DRAW);
  return ready;
}
