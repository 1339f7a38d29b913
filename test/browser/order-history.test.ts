/**
 * The ordering page is one page with three steps (form, confirmation, order). On a phone the Back button is how
 * people go back a step: it must not leave the site from the confirmation, nor lose what was typed; after an order
 * is made, Back goes to the form, Forward and a reload bring the saved order back.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { fillOrder, PHONE, startServer } from './ordering-support.ts';

const visibleStep = (page: Page) => page.evaluate(() => ['start', 'confirm', 'order'].filter((id) => !document.getElementById(id)!.hidden));

describe.skipIf(!hasChromium)(`the ordering page and the browser's Back button ${CHROMIUM_NOTE}`, () => {
  it('goes back a step, keeps what was typed, and finds the order again going forward', { timeout: 60_000 }, async () => {
    const { base } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    await page.goto(base);
    await page.locator('#sizes input').first().waitFor({ state: 'attached' });
    await fillOrder(page, { size: '15-inch', font: 'Script', thread: 'Navy', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' });

    // Back from the confirmation: the form, with what was typed, and the page still this one.
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(page.url()).toBe(`${base}/`);
    expect(await page.getByLabel('Text to stitch').inputValue()).toBe('ADA');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('stitchText');
    await page.goForward();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['confirm']);

    // "Change something" is a step back too, so no stale confirmation is left in the history behind the order.
    await page.getByRole('button', { name: 'Change something' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    await page.getByRole('button', { name: 'Review my order' }).click();
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    const orderNumber = await page.locator('#order-number').textContent();

    // Back from the order: the form (the order is not lost: Forward shows it, as does a reload).
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(page.url()).toBe(`${base}/`);
    await page.goForward();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['order']);
    expect(await page.locator('#order-number').textContent()).toBe(orderNumber);
    await page.reload();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    expect(pageErrors).toEqual([]);
  });
});
