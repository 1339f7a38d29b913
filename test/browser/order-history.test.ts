/**
 * The ordering page is one page with three steps (form, confirmation, order). On a phone the Back button is how
 * people go back a step: it must not leave the site from the confirmation, nor lose what was typed; after an order
 * is made, Back goes to the form, Forward and a reload bring the saved order back. A second order made after Back
 * keeps the first on the device (it replaced it, and a paid order's payToken is answered nowhere else), and the same
 * email again shows the saved order rather than a bare refusal.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium } from '../support/browser.ts';
import { fillOrder, openOrderingPage } from './ordering-support.ts';

const visibleStep = (page: Page) => page.evaluate(() => ['start', 'confirm', 'order'].filter((id) => !document.getElementById(id)!.hidden));

/** An ordering page on a fresh server, with the form ready. */
async function orderingPage() {
  const { base, api, page, pageErrors } = await openOrderingPage();
  return { api, page, pageErrors };
}

/** Orders on the page, confirmed; answers the order number shown. */
async function orderOn(page: Page, email: string, stitchText: string): Promise<string> {
  await fillOrder(page, { size: '15-inch', font: 'Script', thread: 'Navy', stitchText, name: 'Ada Lovelace', email });
  await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
  await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
  return (await page.locator('#order-number').textContent())!;
}

describe.skipIf(!hasChromium)(`the ordering page and the browser's Back button ${CHROMIUM_NOTE}`, () => {
  it('goes back a step, keeps what was typed, and finds the order again going forward', { timeout: 60_000 }, async () => {
    const { base, page, pageErrors } = await openOrderingPage();
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

  it('keeps a paid order on the device when a second one is made after Back, and shows it for its email again', { timeout: 60_000 }, async () => {
    const { api, page, pageErrors } = await orderingPage();
    const order = (email: string, stitchText: string) => orderOn(page, email, stitchText);
    const first = await order('ada@example.com', 'ADA');
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!) as { orderNumber: string; payToken: string });
    await api.pay(saved.orderNumber, saved.payToken);
    await expect.poll(() => page.locator('#order').textContent(), { timeout: 5_000 }).toContain('paid');

    // Back, and a second order with another email: the first stays reachable from this device.
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(await page.locator('#saved-orders').textContent()).toContain(`order ${first}`);
    const second = await order('grace@example.com', 'GRACE');
    await page.goBack();
    await expect.poll(() => page.locator('#saved-orders').textContent(), { timeout: 3_000 }).toBe(`Orders saved on this device: order ${second}order ${first} · Forget them on this device`);
    await page.getByRole('button', { name: `order ${first}` }).click();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    expect(await page.locator('#order-number').textContent()).toBe(first);

    // The first email again: the saved (paid) order is shown, not a bare refusal on the confirmation.
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    await order('ada@example.com', 'AGAIN');
    expect(await page.locator('#order-number').textContent()).toBe(first);
    expect(await page.locator('#order-note').textContent()).toContain(`already has order ${first}`);
    expect(pageErrors).toEqual([]);
  });

  it('forgets every order saved on a shared device at one tap, and leaves the orders themselves as they are', { timeout: 60_000 }, async () => {
    const { api, page, pageErrors } = await orderingPage();
    const numbers: string[] = [];
    for (const [email, stitchText] of [['ada@example.com', 'ADA'], ['grace@example.com', 'GRACE']] as const) {
      numbers.push(await orderOn(page, email, stitchText));
      await page.goBack();
      await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    }
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!) as { orderNumber: string; payToken: string });

    expect(await page.locator('#saved-orders').textContent()).toBe(`Orders saved on this device: order ${numbers[1]}order ${numbers[0]} · Forget them on this device`);
    await page.getByRole('button', { name: 'Forget them on this device' }).click();
    expect(await page.locator('#saved-orders').isHidden()).toBe(true);
    expect(await page.locator('#forgotten').textContent()).toBe('Forgotten on this device. The orders themselves are not changed.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('stitchText');
    expect(await page.evaluate(() => [localStorage.getItem('sleeve.order'), localStorage.getItem('sleeve.earlierOrders')])).toEqual([null, null]);
    // The next attendee's reload shows the form, with nothing to tap; the order is still held for its owner.
    await page.reload();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['start']);
    expect(await page.locator('#saved-orders').isHidden()).toBe(true);
    expect(await page.locator('#forgotten').textContent()).toBe('');
    expect((await api.rest('GET', `/api/orders/${saved.orderNumber}?t=${encodeURIComponent(saved.payToken)}`)).body.status).toBe('awaiting payment');
    expect(pageErrors).toEqual([]);
  });
});
