/**
 * What the pages' live regions say, and how often (an accessibility review, finding F4: a screen reader repeats what
 * a live region is given). In real Chromium against a real server process, every write to a live region recorded in
 * the page (live-writes.ts):
 *  - the portal's header status is written when it changes, not at every 2-second poll;
 *  - the pickup dialog's match and the order form's stitch-text problem are said once typing pauses (or the field is
 *    left), not at every keystroke; the shown text follows each keystroke;
 *  - the order's status on / and /pay is said once on load, though the subscription's first event repeats the read;
 *  - staff can turn the queue's announcements off ("Announce changes"), and the browser remembers it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { liveWrites, recordLiveWrites } from './live-writes.ts';
import { DESKTOP, PHONE, startServer, signInToStaff } from './ordering-support.ts';
import { LAPTOP, signIn, startWithMerchant } from './portal-support.ts';

const ORDER = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };
const HELD = 'Order 1001 is reserved for you, and not paid yet.';
/** Longer than the announcements' pause (0.7 s), with room for a loaded runner. */
const PAUSE_MS = 1_500;

/** The texts written so far to live regions whose text matches `pattern`. */
const said = async (page: Page, pattern: RegExp) => (await liveWrites(page)).filter((w) => pattern.test(w.text)).map((w) => w.text);

/** A server, a browser page recording live writes, signed in on /staff (announcing as the browser last chose). */
async function staffConsole() {
  const started = await startServer();
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
  await recordLiveWrites(page);
  await signInToStaff(page, started.base);
  await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');
  return { ...started, page, pageErrors };
}

describe.skipIf(!hasChromium)(`what the pages' live regions say, once ${CHROMIUM_NOTE}`, () => {
  it('writes the portal\'s "Up to date" once, not at every poll', { timeout: 60_000 }, async () => {
    const { base, merchant } = await startWithMerchant();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP });
    await recordLiveWrites(page);
    await page.goto(`${base}/portal`);
    await signIn(page, merchant.id, merchant.apiKey);
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Up to date');
    // Three polls or more of an idle portal.
    await page.waitForTimeout(7_000);
    expect(await liveWrites(page, 'conn')).toEqual([{ id: 'conn', text: 'Up to date' }]);
    expect(pageErrors).toEqual([]);
  });

  it('says the pickup check once typing pauses, or at once when the field is left', { timeout: 60_000 }, async () => {
    const { api, page, pageErrors } = await staffConsole();
    const created = await api.createOrder(ORDER);
    await api.pay(created.orderNumber, created.payToken);
    await api.markReady(created.orderNumber);
    await page.getByRole('button', { name: 'Hand over… #1001' }).click();
    const collector = page.getByLabel('Collector’s first and last name');
    await collector.pressSequentially('Grace Hopper', { delay: 30 });
    // Shown at once, said once at most (a loaded runner may pause between two keys as long as a person does).
    expect(await page.locator('#collector-match').textContent()).toBe('✗ Mismatch: this is not the name on the order.');
    expect((await said(page, /match/iu)).length).toBeLessThanOrEqual(1);
    await page.waitForTimeout(PAUSE_MS);
    expect(await said(page, /match/iu)).toEqual(['Mismatch: this is not the name on the order.']);

    await collector.fill('');
    await collector.pressSequentially('Ada Lovelace', { delay: 30 });
    await page.keyboard.press('Tab');
    await expect.poll(() => said(page, /match/iu), { timeout: 500 }).toEqual(['Mismatch: this is not the name on the order.', 'Match: first and last name agree with the order.']);
    expect(pageErrors).toEqual([]);
  });

  it('says a stitch text over the limit once typing pauses, and not again for each character more', { timeout: 60_000 }, async () => {
    const { base } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    await recordLiveWrites(page);
    await page.goto(base);
    // The options (and so the limit) first: the field's checks need them.
    await expect.poll(() => page.locator('input[name="size"]').count(), { timeout: 10_000 }).toBe(4);
    const field = page.getByLabel('Text to stitch');
    await field.pressSequentially('ABCDEFGHIJKLMNOPQRSTUVWXY', { delay: 30 });
    expect(await page.locator('#stitch-error').textContent()).toBe('That is 25 characters; the limit is 20.');
    expect((await said(page, /limit/u)).length).toBeLessThanOrEqual(1);
    await page.waitForTimeout(PAUSE_MS);
    expect(await said(page, /limit/u)).toEqual(['Longer than the limit of 20 characters.']);
    // One more character: the counter and the shown error follow, nothing new is said.
    await field.press('Z');
    await page.waitForTimeout(PAUSE_MS);
    expect(await page.locator('#stitch-error').textContent()).toBe('That is 26 characters; the limit is 20.');
    expect(await said(page, /limit/u)).toEqual(['Longer than the limit of 20 characters.']);
    expect(pageErrors).toEqual([]);
  });

  it('says the order\'s status once on load, on the ordering page and on the pay page', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const created = await api.createOrder(ORDER);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    await recordLiveWrites(page);
    await page.addInitScript((saved) => localStorage.setItem('sleeve.order', saved), JSON.stringify({ orderNumber: created.orderNumber, payToken: created.payToken }));
    await page.goto(base);
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 10_000 }).toBe('Live');
    // The subscription's first event has come by now (it repeats the read, a fraction of a second after it).
    await page.waitForTimeout(PAUSE_MS);
    expect(await liveWrites(page, 'order-message')).toEqual([{ id: 'order-message', text: HELD }]);

    await page.goto(`${base}${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    await page.waitForTimeout(2 * PAUSE_MS);
    expect(await said(page, /reserved/u)).toEqual([HELD]);
    expect(pageErrors).toEqual([]);
  });

  it('lets staff turn the queue\'s announcements off, and remembers it in this browser', { timeout: 60_000 }, async () => {
    const { api, page, pageErrors } = await staffConsole();
    const toggle = page.getByLabel('Announce changes');
    expect(await toggle.isChecked({ timeout: 2_000 })).toBe(true);
    await api.createOrder(ORDER);
    await expect.poll(() => liveWrites(page, 'queue-announce'), { timeout: 5_000 }).toEqual([{ id: 'queue-announce', text: 'Order 1001 awaiting payment.' }]);

    await toggle.uncheck();
    await api.createOrder({ ...ORDER, email: 'grace@example.com', name: 'Grace Hopper' });
    await page.locator('#order-1002').waitFor({ timeout: 5_000 });
    await page.waitForTimeout(PAUSE_MS);
    expect(await liveWrites(page, 'queue-announce')).toHaveLength(1);

    // Still off after a reload (the tab signs in again with its saved token).
    await page.reload();
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');
    expect(await toggle.isChecked()).toBe(false);
    await api.createOrder({ ...ORDER, email: 'alan@example.com', name: 'Alan Turing' });
    await page.locator('#order-1003').waitFor({ timeout: 5_000 });
    await page.waitForTimeout(PAUSE_MS);
    expect(await liveWrites(page, 'queue-announce')).toEqual([]);

    await toggle.check();
    await api.createOrder({ ...ORDER, email: 'edsger@example.com', name: 'Edsger Dijkstra' });
    await expect.poll(() => liveWrites(page, 'queue-announce'), { timeout: 5_000 }).toEqual([{ id: 'queue-announce', text: 'Order 1004 awaiting payment.' }]);
    expect(pageErrors).toEqual([]);
  });
});
