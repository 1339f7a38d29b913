/**
 * The stitch text spelled letter by letter ("A · D · A · space · & · …"), where an attendee checks what will be
 * embroidered, wraps on a phone. Before, it broke at any space, so a line could begin with "·", read as one more
 * character to stitch. Now a line breaks only after a "·": each line begins with a character of the text. Checked
 * where it is shown: the confirmation, the order view and the pay page; the text of each stays "A · D · A · …".
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, openPage } from '../support/browser.ts';
import { fillOrder, linesBeginningWithDot, openOrderingPage, PHONE } from './ordering-support.ts';

const STITCH_TEXT = 'ADA & CO 1815';
const SPELLED = 'A · D · A · space · & · space · C · O · space · 1 · 8 · 1 · 5';

/** How many lines `selector`'s text is drawn on. */
const drawnLines = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
  });

/** The spelled text at `selector` is the whole spelling, drawn on more than one line, no line beginning with "·". */
async function expectWrappedAtCharacters(page: Page, selector: string): Promise<void> {
  await expect.poll(() => page.locator(selector).textContent(), { timeout: 5_000 }).toBe(SPELLED);
  expect(await drawnLines(page, selector), `${selector}: wraps on a phone`).toBeGreaterThan(1);
  expect(await linesBeginningWithDot(page, selector), `${selector}: lines beginning with "·"`).toEqual([]);
}

describe.skipIf(!hasChromium)(`the stitch text spelled on a phone ${CHROMIUM_NOTE}`, () => {
  it('wraps only after a "·" on the confirmation, the order view and the pay page', { timeout: 90_000 }, async () => {
    const { base, browser, page, pageErrors } = await openOrderingPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await fillOrder(page, { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: STITCH_TEXT, name: 'Ada Lovelace', email: 'ada@example.com' });
    await expectWrappedAtCharacters(page, '#confirm-spelled');

    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#order').waitFor({ state: 'visible' });
    await expectWrappedAtCharacters(page, '#order-spelled');

    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!) as { orderNumber: string; payToken: string });
    const pay = await openPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    await pay.page.goto(`${base}/pay/${saved.orderNumber}?t=${encodeURIComponent(saved.payToken)}`);
    await expectWrappedAtCharacters(pay.page, '#spelled');
    expect(pageErrors).toEqual([]);
    expect(pay.pageErrors).toEqual([]);
  });
});
