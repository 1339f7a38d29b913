/**
 * The burst of the live screens' tests (pickup-board-burst, staff-console-burst): BURST orders made ready within a
 * second or two through the services, on a page whose CPU is throttled (Chrome's own throttling, as on a cheap
 * display stick or an old laptop), and how long after the last change the page shows it.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LiveServer } from '../support/live-server.ts';
import { readyOrdersUpTo } from './screens.ts';

export const BURST = 200;
/** How much slower the page's scripts and layout run than on this machine. */
const CPU_SLOWDOWN = 6;
/**
 * How long after the last change a screen may still lag: several times what one that keeps up needs here, loaded,
 * with room for a reconnect; far short of drawing every change in turn.
 */
const CAUGHT_UP_MS = 15_000;

export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/**
 * Makes BURST orders ready, then waits until `shown()` gives `expected`, and checks that it did within CAUGHT_UP_MS
 * of the last change. Timed around the poll, not by its timeout: a page busy drawing answers a read only when it is
 * done, so one read can outlast any timeout and still find them all (the staff console drawn one change at a time
 * passed a 15 s poll that way, after 60 s). Returns the orders' numbers in the order they became ready.
 */
export async function burstUntilShown(live: LiveServer, shown: () => Promise<unknown>, expected: unknown, screen: string): Promise<string[]> {
  const ready: string[] = [];
  await readyOrdersUpTo(live.gateway.services, ready, BURST, () => 'Grace Hopper');
  const since = Date.now();
  await expect.poll(shown, { timeout: 90_000 }).toBe(expected);
  expect(Date.now() - since, `milliseconds from the last change until the ${screen} showed it`).toBeLessThan(CAUGHT_UP_MS);
  return ready;
}
