/**
 * The ordering page for screen readers, keyboards and forced colours (an accessibility review, findings F2, F9 and
 * F7), in real Chromium against a real server process:
 *  - in forced colours (Windows High Contrast) the chosen size, font and thread tile looks unlike the others: the
 *    checked state was drawn only by a border colour and a box-shadow, both overridden there;
 *  - a choice group the error names has its radios marked invalid and described by the error until one is chosen;
 *  - the tab's title follows the step and the order's status (it stayed "Order a sleeve" throughout).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { fillOrder, PHONE, startServer } from './ordering-support.ts';

const ORDER = { size: '14-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' };

async function orderingPage() {
  const started = await startServer();
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
  await page.goto(started.base);
  await expect.poll(() => page.locator('input[name="size"]').count(), { timeout: 10_000 }).toBe(4);
  return { ...started, page, pageErrors };
}

/** How the tile of each size is drawn: its border, its name's background and what comes before the name. */
const sizeTiles = (page: Page) => page.locator('#sizes .choice').evaluateAll((tiles) => tiles.map((tile) => {
  const name = tile.querySelector('span')!;
  return {
    checked: tile.querySelector('input')!.checked,
    look: [getComputedStyle(tile).borderColor, getComputedStyle(name).backgroundColor, getComputedStyle(name, '::before').content].join(' | '),
  };
}));

/** The radios of each choice group: [aria-invalid, aria-describedby] of each, by group. */
const groupMarks = (page: Page) => page.evaluate(() => Object.fromEntries(['size', 'font', 'thread'].map((kind) => [kind,
  [...new Set([...document.querySelectorAll(`input[name="${kind}"]`)].map((r) => `${r.getAttribute('aria-invalid')} ${r.getAttribute('aria-describedby')}`))]])));

describe.skipIf(!hasChromium)(`the ordering page for screen readers and forced colours ${CHROMIUM_NOTE}`, () => {
  it('draws the chosen tile unlike the others in forced colours', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await orderingPage();
    await page.locator('input[name="size"][value="14-inch"]').check();
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);
    await screenshot(page, 'order-tiles-forced-colors');
    const tiles = await sizeTiles(page);
    const chosen = tiles.filter((t) => t.checked).map((t) => t.look);
    const others = new Set(tiles.filter((t) => !t.checked).map((t) => t.look));
    expect(chosen).toHaveLength(1);
    expect(others.size).toBe(1);
    expect(others.has(chosen[0]!), `chosen ${chosen[0]} among ${[...others]}`).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('marks the choice groups the error names, and unmarks each once chosen', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await orderingPage();
    expect(await groupMarks(page)).toEqual({ size: ['null null'], font: ['null null'], thread: ['null null'] });
    await page.getByRole('button', { name: 'Review my order' }).click();
    expect(await page.locator('#choice-error').textContent()).toBe('Choose a size, a font and a thread.');
    const marked = ['true choice-error'];
    expect(await groupMarks(page)).toEqual({ size: marked, font: marked, thread: marked });
    await page.locator('input[name="size"][value="14-inch"]').check();
    expect(await groupMarks(page)).toEqual({ size: ['null null'], font: marked, thread: marked });
    await page.locator('input[name="font"][value="Block"]').check();
    await page.locator('input[name="thread"][value="Gold"]').check();
    expect(await groupMarks(page)).toEqual({ size: ['null null'], font: ['null null'], thread: ['null null'] });
    expect(await page.locator('#choice-error').textContent()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('titles the tab by the step, and by the order\'s status once there is one', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await orderingPage();
    expect(await page.title()).toBe('Order a sleeve');
    await fillOrder(page, ORDER);
    expect(await page.title()).toBe('Check your sleeve — Order a sleeve');
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => page.title(), { timeout: 5_000 }).toBe('Order 1001 — awaiting payment');
    await page.getByRole('button', { name: 'Pay with the demo card' }).click();
    await expect.poll(() => page.title(), { timeout: 5_000 }).toBe('Order 1001 — paid');
    await page.getByRole('button', { name: 'Order another sleeve' }).click();
    expect(await page.title()).toBe('Order a sleeve');
    // Back shows the order again, under its own title.
    await page.goBack();
    await expect.poll(() => page.title(), { timeout: 5_000 }).toBe('Order 1001 — paid');
    expect(pageErrors).toEqual([]);
  });
});
