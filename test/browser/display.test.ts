/**
 * The pickup display in a real browser against a real server process: an order marked ready shows up live, and
 * after the server restarts (same port, same SQLite file) the page — never reloaded — reconnects by itself and
 * shows the whole board again.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, client, DESKTOP, freePort, hasChromium, launchBrowser, openPage, PHONE, screenshot } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ADMIN_TOKEN = 'test-admin';
const ADA = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };
const GRACE = { ...ADA, email: 'grace@example.com', name: 'Grace Hopper', stitchText: 'COBOL' };

describe.skipIf(!hasChromium)(`the pickup display in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('shows a ready order live, and follows the board again after a server restart without a reload', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`,
      ADMIN_TOKEN,
      PUBLIC_URL: base,
    };
    const first = await startProcess(env);
    expect(first.url).toBe(base);
    const api = client(base, ADMIN_TOKEN);

    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await page.goto(`${base}/display`);
    const state = page.locator('#state');
    await expect.poll(() => state.textContent(), { timeout: 10_000 }).toBe('Live');
    await expect.poll(() => page.locator('#empty').isVisible()).toBe(true);
    await screenshot(page, 'display-empty-desktop');

    // Ada's order: created, paid, marked ready by staff — on the screen within 2 s.
    const ada = await api.createOrder(ADA);
    expect(ada.orderNumber).toBe('1001');
    await api.pay('1001', ada.payToken);
    expect(await api.markReady('1001')).toBe('READY');
    const adaCard = page.locator('li[data-order-number="1001"]');
    await adaCard.waitFor({ state: 'visible', timeout: 2_000 });
    expect(await adaCard.locator('.number').textContent()).toBe('1001');
    expect(await adaCard.locator('.name').textContent()).toBe('Ada L.');
    expect(await page.locator('#empty').isVisible()).toBe(false);

    // Grace's order is paid before the restart; staff mark it ready only afterwards.
    const grace = await api.createOrder(GRACE);
    expect(grace.orderNumber).toBe('1002');
    await api.pay('1002', grace.payToken);

    // Restart: a clean stop (exit 0), then the same port and the same database file.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await expect.poll(() => state.textContent(), { timeout: 10_000 }).toBe('Reconnecting…');
    const second = await startProcess(env);
    expect(second.url).toBe(base);
    expect(await api.markReady('1002')).toBe('READY');

    // The page, never reloaded, reconnects (jittered backoff, at most 10 s) and shows the whole board.
    const graceCard = page.locator('li[data-order-number="1002"]');
    await graceCard.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await graceCard.locator('.name').textContent()).toBe('Grace H.');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toBe('Live');
    expect(await page.locator('li .number').allTextContents()).toEqual(['1001', '1002']);
    expect(await page.locator('li .name').allTextContents()).toEqual(['Ada L.', 'Grace H.']);
    expect(pageErrors).toEqual([]);

    // Large, readable numbers on the big screen; still whole and readable on a phone.
    expect(await numberHeight(page)).toBeGreaterThanOrEqual(80);
    expect(await overflowingCards(page)).toEqual([]);
    await screenshot(page, 'display-desktop');
    await page.setViewportSize(PHONE);
    // The page lays the board out again from its ResizeObserver, in a frame after the resize: until then the cards
    // keep their desktop size and overflow the phone's width. A full run once read them then; a probe switching
    // sizes 20 times read that after about half of the switches to the phone. So the check waits for the re-layout.
    await expect.poll(() => overflowingCards(page), { timeout: 5_000 }).toEqual([]);
    expect(await numberHeight(page)).toBeGreaterThanOrEqual(48);
    await screenshot(page, 'display-phone');
  });
});

/** The rendered height of the first order number, in CSS pixels. */
function numberHeight(page: Page): Promise<number> {
  return page.locator('li .number').first().evaluate((el) => el.getBoundingClientRect().height);
}

/** Cards whose content does not fit inside them, or that sit outside the viewport's width. */
function overflowingCards(page: Page): Promise<string[]> {
  return page.locator('li').evaluateAll((cards) =>
    cards
      .filter((li) => {
        const box = li.getBoundingClientRect();
        const inner = [...li.children].some((c) => c.scrollWidth > c.clientWidth || c.getBoundingClientRect().right > box.right);
        return inner || li.scrollWidth > li.clientWidth || box.left < 0 || box.right > document.documentElement.clientWidth;
      })
      .map((li) => (li as HTMLElement).dataset.orderNumber ?? '?'),
  );
}
