/**
 * The pickup board at a busy hour (issue 18), in real Chromium against an in-process gateway on a real port: at a
 * phone, a laptop, a 1080p and a 4K screen, with 5, 25, 60 and 200 orders ready, every order number becomes visible
 * within one page cycle, none is clipped, and the number's rendered height never drops below the floor readable
 * across a room. The orders are made through the services (fast); the page is the real page, following the real
 * subscription. A short page interval (`?pageSeconds=`) keeps the cycles short.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';
import { readyOrdersUpTo, SCREENS } from './screens.ts';

const PAGE_SECONDS = 0.3;
const COUNTS = [5, 25, 60, 200];
const FIRST_NAMES = ['Ada', 'Grace', 'Katherine', 'Li', 'Maximilianus-Bartholomew', 'Zoë', 'Alan', 'Hedy', 'Radia', 'Barbara-Anne'];

interface Cycle {
  seen: string[];
  clipped: string[];
  minHeight: number;
  pageNotes: string[];
}

/**
 * Watches the board in the page, a frame at a time, until every one of `expected` has been shown (or `ms` pass):
 * which numbers were visible, any card cut by the screen or whose text does not fit it, the smallest rendered
 * height of a number, and the page notes shown.
 */
function watchOneCycle(page: Page, expected: string[], ms: number): Promise<Cycle> {
  return page.evaluate(
    ({ expected, ms }) =>
      new Promise<Cycle>((resolve) => {
        const seen = new Set<string>();
        const clipped = new Set<string>();
        const notes = new Set<string>();
        let minHeight = Infinity;
        const main = document.querySelector('main')!;
        const end = performance.now() + ms;
        const look = () => {
          const bounds = main.getBoundingClientRect();
          for (const li of document.querySelectorAll<HTMLElement>('#board li')) {
            if (!li.checkVisibility()) continue;
            const n = li.dataset.orderNumber!;
            seen.add(n);
            const box = li.getBoundingClientRect();
            const number = li.querySelector<HTMLElement>('.number')!;
            const name = li.querySelector<HTMLElement>('.name')!;
            // Its laid-out height: a card that just arrived is still growing into place (a scale animation).
            minHeight = Math.min(minHeight, number.offsetHeight);
            const outside = box.top < bounds.top - 1 || box.bottom > bounds.bottom + 1 || box.left < -1 || box.right > innerWidth + 1;
            const cut = [number, name].some((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > box.right + 1);
            if (outside || cut) clipped.add(`${n}: ${JSON.stringify({ top: box.top, bottom: box.bottom, left: box.left, right: box.right, room: [bounds.top, bounds.bottom] })}`);
          }
          const note = document.getElementById('page')!;
          if (note.textContent) notes.add(note.textContent);
          if (expected.every((n) => seen.has(n)) || performance.now() > end) {
            resolve({ seen: [...seen], clipped: [...clipped], minHeight, pageNotes: [...notes].sort() });
          } else requestAnimationFrame(look);
        };
        look();
      }),
    { expected, ms },
  );
}

describe.skipIf(!hasChromium)(`the pickup board at a busy hour ${CHROMIUM_NOTE}`, () => {
  it('shows every ready order at 5, 25, 60 and 200, on a phone, a laptop, 1080p and 4K, never below a readable size', { timeout: 150_000 }, async () => {
    const live = await liveServer();
    const base = `http://127.0.0.1:${live.server.port}`;
    const ready: string[] = [];
    // Long and short first names: a long one must wrap, never be cut.
    const readyUpTo = (count: number) => readyOrdersUpTo(live.gateway.services, ready, count, (i) => `${FIRST_NAMES[i % FIRST_NAMES.length]} Lovelace`);

    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: SCREENS[0]!.viewport });
    await page.goto(`${base}/display?pageSeconds=${PAGE_SECONDS}`);
    await expect.poll(() => page.locator('#state').textContent(), { timeout: 10_000 }).toBe('Live');

    const heights = new Map<string, number[]>();
    for (const count of COUNTS) {
      await readyUpTo(count);
      for (const { name, viewport } of SCREENS) {
        await page.setViewportSize(viewport);
        await expect.poll(() => page.locator('#count').textContent(), { timeout: 5_000 }).toBe(`${count} ready`);
        // The board lays itself out again on the frame after a resize.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const pages = await page.evaluate(() => document.getElementById('page')!.textContent);
        const total = Number(/of (\d+)$/u.exec(pages ?? '')?.[1] ?? 1);
        // One cycle: every page once, plus a page's time of slack for the frame the cycle started in.
        const cycle = await watchOneCycle(page, ready, (total + 2) * PAGE_SECONDS * 1000 + 2_000);
        const where = `${count} orders at ${name}`;
        expect(ready.filter((n) => !cycle.seen.includes(n)), `${where}: never shown`).toEqual([]);
        expect(cycle.clipped, `${where}: clipped`).toEqual([]);
        // The floor (display.js): 6% of the height, held to a ninth of the width, never under 40 px.
        const floor = Math.max(40, Math.min(viewport.height * 0.06, viewport.width / 9));
        expect(cycle.minHeight, `${where}: number height`).toBeGreaterThanOrEqual(floor - 1);
        heights.set(name, [...(heights.get(name) ?? []), cycle.minHeight]);
        if (total > 1) {
          expect(cycle.pageNotes, where).toEqual(Array.from({ length: total }, (_, i) => `Page ${i + 1} of ${total}`).sort());
        } else {
          expect(cycle.pageNotes, where).toEqual([]);
        }
        if (count === 25 || count === 200) await screenshot(page, `display-${count}-${name}`);
      }
    }
    // Fewer orders, larger numbers: the board grows them to fill the screen, and pages only at the floor.
    for (const [name, list] of heights) expect(list[0]!, name).toBeGreaterThan(list.at(-1)!);
    expect(await page.locator('#page').textContent()).toMatch(/^Page \d+ of \d+$/u);

    // The newest order is highlighted for a few seconds, then looks like the others. (A card's highlight runs from
    // when its page is shown: the orders added above have had theirs once the cycle showed them.)
    await expect.poll(() => page.locator('li.new').count(), { timeout: 20_000 }).toBe(0);
    await readyUpTo(COUNTS.at(-1)! + 1);
    const newest = page.locator(`li[data-order-number="${ready.at(-1)}"]`);
    await expect.poll(() => newest.getAttribute('class'), { timeout: 5_000 }).toBe('new');
    expect(await page.locator('li.new').count()).toBe(1);
    expect(await page.locator('#announce').textContent()).toBe(`Ready for pickup: ${ready.at(-1)}.`);
    await expect.poll(() => newest.getAttribute('class'), { timeout: 10_000 }).toBe('');
    expect(pageErrors).toEqual([]);
  });
});
