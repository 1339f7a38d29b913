/**
 * A phone or a kiosk with an order saved on it (paid, or held with its pay button) shows that order to whoever opens
 * `/` next: a friend borrowing the phone, the next attendee at the kiosk. From that view there must be a way to the
 * form (the order still saved and listed there, Back showing it again) and a way to forget the saved orders on this
 * device (README, the `/` row: "one tap forgets them all, for a shared device such as a kiosk"). Before, the order
 * view had only the "Sleeve" link, which showed the same order again, until the order was collected or cancelled.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium } from '../support/browser.ts';
import { fillOrder, lookAt, openOrderingPage, PHONE } from './ordering-support.ts';

const visibleStep = (page: Page) => page.evaluate(() => ['start', 'confirm', 'order'].filter((id) => !document.getElementById(id)!.hidden));
const savedOnDevice = (page: Page) => page.evaluate(() => [localStorage.getItem('sleeve.order'), localStorage.getItem('sleeve.earlierOrders')]);

/**
 * How the ways out of a note (`#order-device`, `#saved-orders`) lie: each link button's left edge from the note's
 * text edge, in pixels, and the "·" separators that are drawn. On a phone the note wraps: before, a "·" dangled at
 * the end of the first line and each link stood indented by its padding.
 */
const waysOut = (page: Page, id: string) =>
  page.evaluate((id) => {
    const note = document.getElementById(id)!;
    const textEdge = note.getBoundingClientRect().left + parseFloat(getComputedStyle(note).paddingLeft);
    const links = [...note.querySelectorAll('button.link')].map((link) => Math.round(link.getBoundingClientRect().left - textEdge));
    const dots: string[] = [];
    const texts = document.createTreeWalker(note, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      if (node.textContent!.includes('·') && range.getClientRects().length > 0) dots.push(node.textContent!.trim());
    }
    return { links, dots };
  }, id);

describe.skipIf(!hasChromium)(`an order saved on a shared device ${CHROMIUM_NOTE}`, () => {
  it('leads from a paid order in a new tab to the form, the order still listed, and Back shows it again', { timeout: 90_000 }, async () => {
    const { base, api, page, pageErrors } = await openOrderingPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await fillOrder(page, { size: '15-inch', font: 'Script', thread: 'Navy', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!) as { orderNumber: string; payToken: string });
    await api.pay(saved.orderNumber, saved.payToken);

    // A new tab on the same device (a friend borrowing the phone): the saved, paid order.
    const tab = await page.context().newPage();
    const tabErrors: string[] = [];
    tab.on('pageerror', (error) => tabErrors.push(error.message));
    await tab.goto(base);
    await expect.poll(() => visibleStep(tab), { timeout: 5_000 }).toEqual(['order']);
    await expect.poll(() => tab.locator('#steps [aria-current=step]').textContent(), { timeout: 5_000 }).toBe('Paid');
    const another = tab.getByRole('button', { name: 'Order another sleeve' });
    expect(await another.isVisible(), '"Order another sleeve" on a paid order').toBe(true);
    expect(await tab.getByRole('button', { name: 'Forget it on this device' }).isVisible()).toBe(true);
    await lookAt(tab, 'order-saved-paid');
    expect(await waysOut(tab, 'order-device'), 'on a phone: each way out on a line of its own, at the text edge, no dot').toEqual({ links: [0, 0], dots: [] });

    await another.tap();
    await expect.poll(() => visibleStep(tab), { timeout: 3_000 }).toEqual(['start']);
    expect(await tab.evaluate(() => document.activeElement?.id)).toBe('stitchText');
    expect(await tab.locator('#saved-orders').textContent()).toBe(`Saved on this device: order ${saved.orderNumber} · Forget it on this device`);
    expect((await waysOut(tab, 'saved-orders')).dots, 'on a phone: no dot drawn').toEqual([]);
    expect((await waysOut(tab, 'saved-orders')).links.at(-1), 'on a phone: "Forget" at the text edge').toBe(0);
    expect(await tab.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!).orderNumber)).toBe(saved.orderNumber);
    // A step of its own: Back shows the order again.
    await tab.goBack();
    await expect.poll(() => visibleStep(tab), { timeout: 3_000 }).toEqual(['order']);
    expect(await tab.locator('#order-number').textContent()).toBe(saved.orderNumber);
    expect(pageErrors).toEqual([]);
    expect(tabErrors).toEqual([]);
  });

  it('forgets a held order from its own view at one tap, and leaves the next attendee an empty form', { timeout: 90_000 }, async () => {
    const { base, api, page, pageErrors } = await openOrderingPage({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    await fillOrder(page, { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'KIOSK ONE', name: 'Ada Lovelace', email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!) as { orderNumber: string; payToken: string });
    expect(await page.locator('#hold').isVisible()).toBe(true);

    // The next attendee at the kiosk: the previous one's held order, with its pay button. One tap forgets it.
    await page.reload();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    const forget = page.getByRole('button', { name: 'Forget it on this device' });
    expect(await forget.isVisible(), '"Forget it on this device" on a held order').toBe(true);
    await lookAt(page, 'order-saved-held-dark');
    await forget.tap();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(await savedOnDevice(page)).toEqual([null, null]);
    expect(await page.locator('#saved-orders').isHidden()).toBe(true);
    expect(await page.locator('#forgotten').textContent()).toBe('Forgotten on this device. The orders themselves are not changed.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('stitchText');
    // Nothing of the last attendee's is left on the form.
    for (const label of ['Text to stitch', 'First and last name', 'Email']) expect(await page.getByLabel(label).inputValue(), label).toBe('');
    expect(await page.locator('#order-form input[type=radio]:checked').count()).toBe(0);
    // Back does not bring it back, nor does a reload; the order itself is still held for its owner.
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    await page.goto(base);
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['start']);
    expect((await api.rest('GET', `/api/orders/${saved.orderNumber}?t=${encodeURIComponent(saved.payToken)}`)).body.status).toBe('awaiting payment');
    expect(pageErrors).toEqual([]);
  });

  it('names every saved order in the order view’s way to forget them', { timeout: 90_000 }, async () => {
    const { base, page, pageErrors } = await openOrderingPage();
    for (const [email, stitchText] of [['ada@example.com', 'ADA'], ['grace@example.com', 'GRACE']] as const) {
      if (email !== 'ada@example.com') {
        const another = page.getByRole('button', { name: 'Order another sleeve' });
        expect(await another.isVisible(), '"Order another sleeve" on a held order').toBe(true);
        await another.click();
      }
      await fillOrder(page, { size: '13-inch', font: 'Block', thread: 'Gold', stitchText, name: 'Ada Lovelace', email });
      await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
      await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    }
    await page.getByRole('button', { name: 'Forget the 2 orders saved on this device' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(await savedOnDevice(page)).toEqual([null, null]);
    expect(pageErrors).toEqual([]);
  });
});
