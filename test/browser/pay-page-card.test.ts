/**
 * The hosted pay page paying for real in headless Chromium against a real server process (issue 5): a card that
 * succeeds shows the paid state; a declined card shows the decline and leaves the order payable, and the sandbox
 * wallet then pays it. The card number only ever goes to the order's tokenization path, never to GraphQL.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_NOTE, client, freePort, hasChromium, launchBrowser, openPage, PHONE } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fillCard, lookAt } from './ordering-support.ts';

const ADMIN_TOKEN = 'test-admin';
const order = (email: string, name: string) => ({ email, name, size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'GO 2' });

describe.skipIf(!hasChromium)(`paying on the pay page by card and wallet ${CHROMIUM_NOTE}`, () => {
  it('pays with 4242 4242 4242 4242; a second order is declined, then paid with the wallet', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await startProcess({ PORT: String(port), DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`, ADMIN_TOKEN, PUBLIC_URL: base });
    const api = client(base, ADMIN_TOKEN);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
    // Where the card number travels: only to the order's card-token path.
    const carriers = new Set<string>();
    page.on('request', (request) => {
      if ((request.postData() ?? '').includes('4242424242424242') || (request.postData() ?? '').includes('4000000000000002')) carriers.add(new URL(request.url()).pathname);
    });

    const first = await api.createOrder(order('ada@example.com', 'Ada Lovelace'));
    await page.goto(`${base}${new URL(first.payUrl).pathname}${new URL(first.payUrl).search}`);
    await expect.poll(() => page.locator('#spelled').textContent(), { timeout: 5_000 }).toBe('G · O · space · 2');
    expect(await page.locator('#pay-label').textContent()).toBe('Pay $1.00 - all payments will be refunded');
    expect(await page.locator('#card-pay').textContent()).toBe('Pay $1.00');
    await lookAt(page, 'pay-card-form');

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 10_000 }).toContain('paid');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await page.locator('#countdown').isVisible()).toBe(false);
    await lookAt(page, 'pay-card-paid');
    expect((await api.rest('GET', `/api/orders/${first.orderNumber}?t=${encodeURIComponent(first.payToken)}`)).body.status).toBe('received');

    const second = await api.createOrder(order('grace@example.com', 'Grace Hopper'));
    await page.goto(`${base}${new URL(second.payUrl).pathname}${new URL(second.payUrl).search}`);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 10_000 }).toContain('declined');
    expect(await page.locator('#result').getAttribute('class')).toBe('bad');
    expect(await page.locator('#pay').isVisible()).toBe(true);
    await lookAt(page, 'pay-card-declined');

    await page.getByRole('button', { name: 'Pay with the sandbox wallet' }).click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 10_000 }).toContain('paid');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect((await api.rest('GET', `/api/orders/${second.orderNumber}?t=${encodeURIComponent(second.payToken)}`)).body.status).toBe('received');

    expect([...carriers]).toEqual([`/api/orders/${first.orderNumber}/card-token`, `/api/orders/${second.orderNumber}/card-token`]);
    expect(pageErrors).toEqual([]);
  });

  it('marks a card the vault refuses and says why, without paying', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await startProcess({ PORT: String(port), DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`, ADMIN_TOKEN, PUBLIC_URL: base });
    const api = client(base, ADMIN_TOKEN);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE, colorScheme: 'dark' });
    const created = await api.createOrder(order('ada@example.com', 'Ada Lovelace'));
    await page.goto(`${base}${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    await fillCard(page, '4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Pay $1.00' }).click();
    await expect.poll(() => page.locator('#card-number').getAttribute('aria-invalid'), { timeout: 5_000 }).toBe('true');
    expect(await page.locator('#result').textContent()).toContain('card number');
    await lookAt(page, 'pay-card-invalid-dark');
    expect((await api.rest('GET', `/api/orders/${created.orderNumber}?t=${encodeURIComponent(created.payToken)}`)).body.status).toBe('awaiting payment');
    expect(pageErrors).toEqual([]);
  });

  it('shows a change made elsewhere at once, over the orderUpdates subscription', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await startProcess({ PORT: String(port), DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`, ADMIN_TOKEN, PUBLIC_URL: base });
    const api = client(base, ADMIN_TOKEN);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    const created = await api.createOrder(order('ada@example.com', 'Ada Lovelace'));
    const sent: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
    await page.goto(`${base}${new URL(created.payUrl).pathname}${new URL(created.payUrl).search}`);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    // Once the page has subscribed, a change made elsewhere must reach it without a reload.
    // (The page subscribes by its trusted document's name and hash: operations/PayPageUpdates.graphql, orderUpdates.)
    await expect.poll(() => sent.some((payload) => payload.includes('"operationName":"PayPageUpdates"')), { timeout: 5_000 }).toBe(true);
    await api.staff(`mutation { cancelOrder(orderNumber: "${created.orderNumber}", reason: "Out of gold thread") { status } }`);
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 3_000 });
    expect(await page.locator('#status').textContent()).toMatch(/cancelled/u);
    expect(pageErrors).toEqual([]);
  });
});
