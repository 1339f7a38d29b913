/**
 * What a screen reader and a keyboard meet on the pay page (an accessibility review of the pages): the countdown is
 * a silent timer with a polite announcement now and then, not a live region read out every second; a card form
 * with mistakes marks every field at fault and says so in words, not field code names; and focus is never dropped
 * on the page's body when a payment ends (the Pay button it was on is disabled while paying). A second review
 * (WCAG 2.2): the time left is said in words, and no longer there to read once the order is paid or cancelled; the
 * tab's title says what became of the order; each card field is described by its own error, in its own words.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, client, freePort, hasChromium, launchBrowser, openPage, PHONE } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fillCard } from './ordering-support.ts';

const ADMIN_TOKEN = 'test-admin';
const ORDER = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'GO 2' };

/** A server process, an order, and its pay page open and held; `api` reaches the server as staff. */
async function payPage() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await startProcess({ PORT: String(port), DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`, ADMIN_TOKEN, PUBLIC_URL: base });
  const api = client(base, ADMIN_TOKEN);
  const created = await api.createOrder(ORDER);
  const browser = await launchBrowser();
  const opened = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
  const payPath = `${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`;
  await opened.page.goto(`${base}${payPath}`);
  await opened.page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
  return { ...opened, api, base, payPath };
}

/** A second order (1002), its pay page open in `page` and held. */
async function openAnotherOrder(page: Page, api: ReturnType<typeof client>, base: string) {
  const created = await api.createOrder({ ...ORDER, email: 'grace@example.com', name: 'Grace Hopper' });
  await page.goto(`${base}${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`);
  await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
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
    // In words: "4:58" may be read as a time of day.
    expect(await page.locator('#countdown-announce').textContent()).toMatch(/^4 minutes 5\d seconds left to pay\.$/u);
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
    // The day comes first when the hold ends on another day in New York ("Sun, Dec 6, 12:02 AM ET": CI at 11:57 PM).
    expect(await page.locator('#deadline').textContent()).toMatch(/^Pay before ([A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d{2} [AP]M ET, or the order is cancelled\.$/u);
    expect(status).not.toMatch(/payment page/u);
    expect(pageErrors).toEqual([]);
  });

  it('marks every card field at fault, in words, and focuses the first', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    await page.getByLabel('Card number').fill('4242');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    const fields = ['#card-number', '#card-expiry', '#card-cvc', '#card-name'];
    // Each described by its own error, not by one line holding all four.
    for (const field of fields) {
      expect(await page.locator(field).getAttribute('aria-invalid'), field).toBe('true');
      expect(await page.locator(field).getAttribute('aria-describedby'), field).toBe(`${field.slice(1)}-error`);
    }
    expect(await page.locator('#card-number-error').textContent()).toBe('Enter the card number, 10 to 19 digits.');
    expect(await page.locator('#card-expiry-error').textContent()).toBe('Enter the expiry as MM/YY.');
    expect(await page.locator('#card-cvc-error').textContent()).toBe('Enter the security code, 3 or 4 digits.');
    expect(await page.locator('#card-name-error').textContent()).toBe('Enter the name on the card.');
    const message = (await page.locator('#result').textContent())!;
    expect(message).toBe('Check the card number, expiry, security code and name on the card.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    // Fixed fields are no longer marked.
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    expect(await page.locator('#card-number').getAttribute('aria-invalid')).not.toBe('true');
    expect(await page.locator('#card-number-error').textContent()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('says a month out of 01–12 is not a month, rather than repeat the format', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    await fillCard(page, '4242 4242 4242 4242', '13/30');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    // What a screen reader reads with the field: its description.
    const described = () => page.locator('#card-expiry').evaluate((field) =>
      (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' '));
    expect(await described()).toBe('The expiry month must be 01 to 12.');
    expect(await page.locator('#result').textContent()).toBe('Check the expiry.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-expiry');
    expect(pageErrors).toEqual([]);
  });

  it('leaves nothing of the countdown to read once the order is paid or cancelled', { timeout: 60_000 }, async () => {
    const { page, pageErrors, api, base } = await payPage();
    expect(await page.locator('#countdown-announce').textContent()).toMatch(/left to pay/u);
    await page.getByRole('button', { name: /^Pay with the demo card/u }).click();
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await page.locator('#countdown-announce').textContent()).toBe('');

    await openAnotherOrder(page, api, base);
    expect(await page.locator('#countdown-announce').textContent()).toMatch(/left to pay/u);
    await api.staff('mutation { cancelOrder(orderNumber: "1002", reason: "Test") { status } }');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await page.locator('#countdown-announce').textContent()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('titles the tab by what became of the order, and a link that is not valid as such', { timeout: 60_000 }, async () => {
    const { page, pageErrors, api, base, payPath } = await payPage();
    expect(await page.title()).toBe('Pay for sleeve order 1001');
    await page.getByRole('button', { name: /^Pay with the demo card/u }).click();
    await expect.poll(() => page.title(), { timeout: 5_000 }).toBe('Order 1001 — paid');

    await openAnotherOrder(page, api, base);
    await api.staff('mutation { cancelOrder(orderNumber: "1002", reason: "Test") { status } }');
    await expect.poll(() => page.title(), { timeout: 5_000 }).toBe('Order 1002 — cancelled');

    await page.goto(`${base}${payPath.replace(/t=[^&]+/u, 't=not-the-token')}`);
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 5_000 }).toBe('This payment link is not valid. Check the link you were given.');
    expect(await page.title()).toBe('Payment link not valid');
    expect(pageErrors).toEqual([]);
  });

  it('keeps focus on the page after a declined card, never on its body', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await payPage();
    await fillCard(page, '4000 0000 0000 0002');
    // A keyboard user on the Pay button, which is disabled while paying.
    await page.getByRole('button', { name: 'Pay $1.00' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 10_000 }).toContain('declined');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName)).not.toBe('BODY');
    expect(pageErrors).toEqual([]);
  });
});
