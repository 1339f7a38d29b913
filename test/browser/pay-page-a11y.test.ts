/**
 * What a screen reader and a keyboard meet on the pay page (an accessibility review of the pages): the countdown is
 * a silent timer with a polite announcement now and then, not a live region read out every second; a card form
 * with mistakes marks every field at fault and says so in words, not field code names; and focus is never dropped
 * on the page's body when a payment ends (the Pay button it was on is disabled while paying).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, client, freePort, hasChromium, launchBrowser, openPage, PHONE } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ADMIN_TOKEN = 'test-admin';
const ORDER = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'GO 2' };

async function payPage(): Promise<{ page: Page; pageErrors: unknown[] }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await startProcess({ PORT: String(port), DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`, ADMIN_TOKEN, PUBLIC_URL: base });
  const created = await client(base, ADMIN_TOKEN).createOrder(ORDER);
  const browser = await launchBrowser();
  const opened = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
  await opened.page.goto(`${base}${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`);
  await opened.page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
  return opened;
}

/** The aria-live of the nearest live region around `selector` ('off' when none). */
const liveAround = (page: Page, selector: string) =>
  page.evaluate((s) => document.querySelector(s)!.closest('[aria-live]')?.getAttribute('aria-live') ?? 'off', selector);

describe.skipIf(!hasChromium)(`the pay page for screen readers and keyboards ${CHROMIUM_NOTE}`, () => {
  it('counts down silently and announces the time left when it appears, not every second', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    const countdown = page.locator('#countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).toMatch(/^4:5\d$/u);
    expect(await countdown.getAttribute('role')).toBe('timer');
    expect(await liveAround(page, '#countdown')).toBe('off');
    expect(await page.locator('#countdown-announce').textContent()).toMatch(/^4:5\d left to pay\.$/u);
    const said = await page.locator('#countdown-announce').textContent();
    const first = await countdown.textContent();
    await expect.poll(() => countdown.textContent(), { timeout: 3_000 }).not.toBe(first);
    expect(await page.locator('#countdown-announce').textContent()).toBe(said); // a tick says nothing new
    expect(await page.locator('#status').getAttribute('role')).toBe('status');
    // Said, not shown: the announcement lags the timer (it was printed under it, "4:58 left to pay." beside 4:56).
    const box = await page.locator('#countdown-announce').boundingBox();
    expect(box && box.width <= 1 && box.height <= 1).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('says in its own words that the order is held, without sending the user to "the payment page" it is', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    const status = (await page.locator('#status').textContent())!;
    expect(status).toMatch(/^Order \d+ is reserved for you, and not paid yet\.$/u);
    expect(await page.locator('#deadline').textContent()).toMatch(/^Pay before \d{1,2}:\d{2} [AP]M ET, or the order is cancelled\.$/u);
    expect(status).not.toMatch(/payment page/u);
    expect(pageErrors).toEqual([]);
  });

  it('marks every card field at fault, in words, and focuses the first', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    await page.getByLabel('Card number').fill('4242');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    const fields = ['#card-number', '#card-expiry', '#card-cvc', '#card-name'];
    for (const field of fields) {
      expect(await page.locator(field).getAttribute('aria-invalid'), field).toBe('true');
      expect(await page.locator(field).getAttribute('aria-describedby'), field).toContain('result');
    }
    const message = (await page.locator('#result').textContent())!;
    expect(message).toMatch(/card number/iu);
    expect(message).not.toMatch(/cardNumber|expirationMonth|expirationYear|cardHolderName|\bcvc\b/u);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    // Fixed fields are no longer marked.
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    expect(await page.locator('#card-number').getAttribute('aria-invalid')).not.toBe('true');
    expect(pageErrors).toEqual([]);
  });

  it('keeps focus on the page after a declined card, never on its body', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    // A keyboard user on the Pay button, which is disabled while paying.
    await page.getByRole('button', { name: 'Pay $1.00' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 10_000 }).toContain('declined');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName)).not.toBe('BODY');
    expect(pageErrors).toEqual([]);
  });
});
