/**
 * The staff console's live queue redraws every card when an order changes. A keyboard or screen-reader user on one
 * of the buttons must stay on that button, not be moved to its card (read out again in full) or to the page's body;
 * and a dialog closed without an answer must give focus back to the button that opened it, though the live queue
 * drew that button anew meanwhile.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { DESKTOP, startServer, signInToStaff } from './ordering-support.ts';

const ORDER = { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'HI' };
/** What has focus, in words a screen reader would say first: a button's name, or an element's id. */
const focusedName = (page: Page) => page.evaluate(() => {
  const element = document.activeElement;
  return element instanceof HTMLButtonElement ? element.textContent : element?.id || element?.tagName;
});

describe.skipIf(!hasChromium)(`the staff console keeps the keyboard's place in a live queue ${CHROMIUM_NOTE}`, () => {
  it('stays on the same button when other orders arrive, and returns to it after a dialog closed unanswered', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    for (const [i, name] of ['Ada Lovelace', 'Grace Hopper'].entries()) {
      const created = await api.createOrder({ ...ORDER, name, email: `person${i}@example.com` });
      await api.pay(created.orderNumber, created.payToken);
    }
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await signInToStaff(page, base);
    await page.locator('#order-1002').waitFor({ state: 'visible', timeout: 5_000 });
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');

    // On 1001's "Start stitching" by keyboard; another attendee's order arrives and redraws the queue.
    await page.getByRole('button', { name: 'Start stitching #1001' }).focus();
    await api.createOrder({ ...ORDER, name: 'Alan Turing', email: 'alan@example.com' });
    await page.locator('#order-1003').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await focusedName(page)).toBe('Start stitching #1001');

    // The cancel dialog of 1002, opened by keyboard; a live change redraws the queue behind it; Escape closes it.
    await page.getByRole('button', { name: 'Cancel… #1002' }).focus();
    await page.keyboard.press('Enter');
    expect(await focusedName(page)).toBe('cancel-reason');
    await api.markReady('1001');
    await expect.poll(() => page.locator('#order-1001').getAttribute('data-status'), { timeout: 5_000 }).toBe('READY');
    await page.keyboard.press('Escape');
    await page.locator('#cancel-dialog').waitFor({ state: 'hidden', timeout: 3_000 });
    await expect.poll(() => focusedName(page), { timeout: 3_000 }).toBe('Cancel… #1002');

    // Another desk cancelled 1002 while its dialog was open here: its card left the queue, so the queue takes focus.
    await page.keyboard.press('Enter');
    expect(await focusedName(page)).toBe('cancel-reason');
    await api.staff('mutation { cancelOrder(orderNumber: "1002", reason: "Duplicate") { status } }');
    await page.locator('#done-list #order-1002').waitFor({ state: 'attached', timeout: 5_000 });
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedName(page), { timeout: 3_000 }).toBe('queue-title');
    expect(pageErrors).toEqual([]);
  });
});
