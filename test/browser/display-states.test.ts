/**
 * What the pickup display says when it does not know the board (review finding 4), in real Chromium against an
 * in-process gateway on a real port:
 *  - before its first snapshot it says it is connecting, never "No orders are ready yet." (orders may be ready);
 *  - open across a deploy that changed its operation (it holds a hash the server does not know, and is answered
 *    PERSISTED_QUERY_NOT_FOUND), it reloads itself and follows the board again; at most once a minute, so a
 *    server that keeps refusing does not make it reload in a loop;
 *  - on a paged board, an order that has just become ready is shown at the next page turn, still highlighted (it was
 *    on the last page, up to a cycle away, its highlight run out unseen), and every page still comes round;
 *  - a name in a right-to-left script is laid out in its own direction.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';
import { readyOrdersUpTo } from './screens.ts';

const LAPTOP = { width: 1366, height: 768 };
const NO_ORDERS = 'No orders are ready';

/** Serves the page an operations.js whose PickupBoard hash the server does not know, while `stale()` says so. */
async function staleOperations(page: Page, stale: () => boolean) {
  await page.route('**/assets/app/operations.js', async (route) => {
    if (!stale()) return route.continue();
    const response = await route.fetch();
    const body = (await response.text()).replace(/("PickupBoard": ")[0-9a-f]{8}/u, '$1deadbeef');
    await route.fulfill({ response, body });
  });
}

describe.skipIf(!hasChromium)(`the pickup display before it knows the board ${CHROMIUM_NOTE}`, () => {
  it('says it is connecting, not that no orders are ready, until its first snapshot', { timeout: 60_000 }, async () => {
    const live = await liveServer();
    const ready: string[] = [];
    await readyOrdersUpTo(live.gateway.services, ready, 1, () => 'Ada Lovelace');
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP });
    // The socket opens, takes the page's connection_init and never answers: the page waits for its first snapshot.
    let initialised!: () => void;
    const waiting = new Promise<void>((resolve) => (initialised = resolve));
    await page.routeWebSocket('**/graphql', (ws) => ws.onMessage((message) => { if (String(message).includes('connection_init')) initialised(); }));
    await page.goto(`http://127.0.0.1:${live.server.port}/display`);
    await waiting;
    expect(await page.locator('#state').textContent()).toBe('Connecting…');
    expect(await page.locator('body').innerText()).not.toContain(NO_ORDERS);
    expect(await page.locator('#empty').innerText()).toMatch(/connect/u);
    expect(pageErrors).toEqual([]);
  });

  it('reloads itself when the server no longer knows its operation, then follows the board; not again within a minute', { timeout: 90_000 }, async () => {
    const live = await liveServer();
    const ready: string[] = [];
    await readyOrdersUpTo(live.gateway.services, ready, 1, () => 'Ada Lovelace');
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP });
    let loads = 0;
    page.on('load', () => loads++);
    // The first load holds the old hash (opened before a deploy); the reload gets the new one.
    await staleOperations(page, () => loads === 0);
    await page.goto(`http://127.0.0.1:${live.server.port}/display`);
    await expect.poll(() => loads, { timeout: 30_000 }).toBe(2);
    await page.locator(`li[data-order-number="${ready[0]}"]`).waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => page.locator('#state').textContent(), { timeout: 10_000 }).toBe('Live');

    // A server that still refuses after that reload (a deploy half done, say): no second reload within the minute,
    // and the screen says why it is not live rather than "Reconnecting…" or "No orders".
    await page.unrouteAll();
    await staleOperations(page, () => true);
    await page.reload();
    await expect.poll(() => page.locator('#state').textContent(), { timeout: 30_000 }).toMatch(/out of date/u);
    const before = loads;
    await page.waitForTimeout(3_000);
    expect(loads).toBe(before);
    expect(await page.locator('body').innerText()).not.toContain(NO_ORDERS);
    expect(pageErrors).toEqual([]);
  });

  it('on a paged board shows a newly ready order at the next page turn, still highlighted, and still shows every page', { timeout: 90_000 }, async () => {
    const live = await liveServer();
    const ready: string[] = [];
    await readyOrdersUpTo(live.gateway.services, ready, 60, (i) => (i === 1 ? 'محمد عبدالله' : 'Ada Lovelace'));
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`http://127.0.0.1:${live.server.port}/display?pageSeconds=1.5`);
    await expect.poll(() => page.locator('#page').textContent(), { timeout: 10_000 }).toMatch(/^Page 1 of \d+$/u);
    const pages = Number(/of (\d+)$/u.exec((await page.locator('#page').textContent())!)![1]);
    // Enough pages that the old cycle reached the last one after the highlight (6 s) had run out.
    expect(pages).toBeGreaterThanOrEqual(6);
    expect(await page.locator(`li[data-order-number="${ready[0]}"] .name`).getAttribute('dir')).toBe('auto');

    // Watched in the page: the first frame the new card is visible, whether it is highlighted then.
    const firstSeen = page.evaluate((n) => new Promise<{ highlighted: boolean; note: string }>((resolve) => {
      const look = () => {
        const li = document.querySelector<HTMLElement>(`li[data-order-number="${n}"]`);
        if (li?.checkVisibility()) resolve({ highlighted: li.classList.contains('new'), note: document.getElementById('page')!.textContent! });
        else requestAnimationFrame(look);
      };
      look();
    }), String(Number(ready.at(-1)) + 1));
    await readyOrdersUpTo(live.gateway.services, ready, 61, () => 'Grace Hopper');
    const seen = await firstSeen;
    expect(seen.highlighted).toBe(true);
    expect(seen.note).toBe(`Page ${pages} of ${pages}`);
    // The cycle goes on from where it was: every page is shown again.
    const notes = await page.evaluate((ms) => new Promise<string[]>((resolve) => {
      const seenNotes = new Set<string>();
      const end = performance.now() + ms;
      const look = () => {
        seenNotes.add(document.getElementById('page')!.textContent!);
        if (performance.now() > end) resolve([...seenNotes]); else requestAnimationFrame(look);
      };
      look();
    }), (pages + 3) * 1_500);
    expect(notes.sort()).toEqual(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}`).sort());
    expect(pageErrors).toEqual([]);
  });
});
