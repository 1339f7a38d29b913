/**
 * The staff console's queue under a pointer, for staff-queue-aim.test.ts: paid orders and another desk's moves, the
 * console signed in, where a button is and what is under a point, the page's paused clock run until a change is
 * drawn, and the AdvanceOrder requests a page sends.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { client } from '../support/browser.ts';
import { signInToStaff } from './ordering-support.ts';

type Api = ReturnType<typeof client>;
type Point = { x: number; y: number };

/** The sentence a refused click shows (#queue-moved, over the page's foot). */
export const refused = (n: string) => `Order ${n} had just moved under the pointer, so that click did nothing. Check the order, then click again.`;

/** `count` paid orders of one shape (cards of one height), numbered from 1001. */
export async function paidOrders(api: Api, count: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await api.createOrder({ size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'HI', name: 'Ada Lovelace', email: `desk${i}@example.com` });
    await api.pay(created.orderNumber, created.payToken);
    made.push(created.orderNumber);
  }
  return made;
}

/** Another desk moves order `n` on (its own GraphQL call, as another laptop would). */
export async function otherDesk(api: Api, n: string, status: 'IN_PROGRESS' | 'READY'): Promise<void> {
  await api.staff(`mutation { advanceOrder(orderNumber: "${n}", status: ${status}) { status } }`);
}

/** Signs in on the staff console, and waits until the queue is drawn and the stream is live. */
export async function signIn(page: Page, base: string): Promise<void> {
  await signInToStaff(page, base);
  await page.locator('#columns .order').first().waitFor({ state: 'visible', timeout: 10_000 });
  await expect.poll(() => page.locator('#conn').textContent(), { timeout: 10_000 }).toBe('Live');
}

/** A card's step (data-status), the queue's error line, and the refused-click note (#queue-moved). */
export const status = (page: Page, n: string) => page.locator(`#order-${n}`).getAttribute('data-status');
export const queueError = (page: Page) => page.locator('#queue-error').textContent();
export const note = (page: Page) => page.evaluate(() => document.querySelector('#queue-moved')?.textContent ?? '');

/** The middle of the button named `name`, scrolled into view. */
export async function middleOf(page: Page, name: string): Promise<Point> {
  const button = page.getByRole('button', { name, exact: true });
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The name of the button at `point` now ("Mark ready #1003"), or null. */
export const buttonAt = (page: Page, point: Point) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, point);

/** Waits until `read` gives `expected`, running the paused page clock 20 ms at a time (the queue draws at a frame). */
export async function untilDrawn(page: Page, read: () => Promise<unknown>, expected: unknown): Promise<void> {
  await expect.poll(async () => {
    await page.clock.runFor(20);
    return read();
  }, { timeout: 10_000 }).toEqual(expected);
}

/** The AdvanceOrder requests `page` sends, by order number. */
export function advancesOf(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const body = request.method() === 'POST' ? request.postData() : null;
    if (body?.includes('"operationName":"AdvanceOrder"')) sent.push(JSON.parse(body).variables.n);
  });
  return sent;
}

/** A press and release where the mouse is, as the `clickCount`-th click of a run (2: a double click's second). */
export async function click(page: Page, clickCount = 1): Promise<void> {
  await page.mouse.down({ clickCount });
  await page.mouse.up({ clickCount });
}
