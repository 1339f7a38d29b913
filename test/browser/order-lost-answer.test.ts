/**
 * The create reached the server but its answer was lost (a venue network): the page says the server cannot be
 * reached, and the attendee presses "Yes" again. The server answers DUPLICATE with the order it holds for that email,
 * which is the attendee's own first try. The note above it must fit that case too (the attendee never knowingly
 * made an earlier order), and it must go once the order is no longer waiting for payment: before, it said "An order
 * with this email was already waiting for payment" under "Order 1001 is paid and received".
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { fillOrder, PHONE, startServer } from './ordering-support.ts';

/** An ordering page whose first create's answer is lost, retried: the order view, with its note, and the server's client. */
async function retriedAfterLostAnswer() {
  const { base, api } = await startServer();
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  // The first CreateOrder reaches the server; its answer is lost on the way back.
  let lose = true;
  await page.route('**/graphql', async (route) => {
    if (lose && (route.request().postData() ?? '').includes('"CreateOrder"')) {
      lose = false;
      await route.fetch();
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await page.goto(base);
  await page.locator('#sizes input').first().waitFor({ state: 'attached' });
  await fillOrder(page, { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' });
  await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
  await expect.poll(() => page.locator('#confirm-error').textContent(), { timeout: 5_000 }).toBe('The server cannot be reached. Check the connection and try again.');
  const stored = await api.staff('{ orders(status: [AWAITING_PAYMENT]) { edges { node { orderNumber } } } }');
  expect(stored.orders.edges).toEqual([{ node: { orderNumber: '1001' } }]);

  await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
  await page.locator('#order').waitFor({ state: 'visible', timeout: 5_000 });
  expect(await page.locator('#order-number').textContent()).toBe('1001');
  return { page, pageErrors, note: page.locator('#order-note') };
}

describe.skipIf(!hasChromium)(`a create whose answer was lost ${CHROMIUM_NOTE}`, () => {
  it('shows the order of the first try with a note that fits it', { timeout: 90_000 }, async () => {
    const { pageErrors, note } = await retriedAfterLostAnswer();
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toBe('An order with this email (perhaps your first try, which went through) was already waiting for payment: this is that order. Nothing new was ordered.');
    expect(pageErrors).toEqual([]);
  });

  it('drops the note once the order is no longer waiting for payment', { timeout: 90_000 }, async () => {
    const { page, pageErrors, note } = await retriedAfterLostAnswer();
    expect(await note.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Pay with the demo card' }).click();
    await expect.poll(() => page.locator('#steps [aria-current=step]').textContent(), { timeout: 5_000 }).toBe('Paid');
    await expect.poll(() => note.isVisible(), { timeout: 3_000 }).toBe(false);
    expect(await page.locator('#order').textContent()).not.toContain('already waiting for payment');
    // Shown again (a reload), the paid order has no such note either.
    await page.reload();
    await expect.poll(() => page.locator('#steps [aria-current=step]').textContent(), { timeout: 5_000 }).toBe('Paid');
    expect(await note.isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
