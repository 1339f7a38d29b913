/**
 * The stitch text spelled letter by letter ("A · D · A · space · & · …"), where an attendee checks what will be
 * embroidered, wraps on a phone. Before, it broke at any space, so a line could begin with "·", read as one more
 * character to stitch. Now a line breaks only after a "·": each line begins with a character of the text. Checked
 * where it is shown: the confirmation, the order view and the pay page; the text of each stays "A · D · A · …".
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, openPage } from '../support/browser.ts';
import { fillOrder, openOrderingPage, PHONE } from './ordering-support.ts';

const STITCH_TEXT = 'ADA & CO 1815';
const SPELLED = 'A · D · A · space · & · space · C · O · space · 1 · 8 · 1 · 5';

/** What each drawn line of `selector`'s text begins with, in order (its first character that is not a space). */
const lineStarts = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const starts = new Map<number, { left: number; character: string }>();
    const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const character = node.textContent![i]!;
        if (character.trim() === '') continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        const line = Math.round(box.top);
        if (!starts.has(line) || starts.get(line)!.left > box.left) starts.set(line, { left: box.left, character });
      }
    }
    return [...starts.entries()].sort(([a], [b]) => a - b).map(([, start]) => start.character);
  });

/** The spelled text at `selector` is the whole spelling, drawn on more than one line, no line beginning with "·". */
async function expectWrappedAtCharacters(page: Page, selector: string): Promise<void> {
  await expect.poll(() => page.locator(selector).textContent(), { timeout: 5_000 }).toBe(SPELLED);
  const starts = await lineStarts(page, selector);
  expect(starts.length, `${selector}: wraps on a phone`).toBeGreaterThan(1);
  expect(starts.filter((start) => start === '·'), `${selector}: lines beginning with "·" (${starts.join(' ')})`).toEqual([]);
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
