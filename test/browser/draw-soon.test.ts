/**
 * dom.js's drawSoon, in real Chromium: the live screens' way of drawing a stream that changes faster than a slow
 * screen draws (the pickup board, the staff queue). Asked at every change, it draws once per frame at most, and after
 * each draw rests at least as long as the draw took, so that at least half the page's time is left to taking the
 * stream in. Drawn at every frame instead, a 6x-throttled board showed the last of 200 ready orders 10 s after the
 * server sent it (the burst tests' comments tell the history); drawn at every change, a minute after.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';

/** How long each draw keeps the page busy, and for how long the test asks for draws. */
const DRAW_MS = 40;
const ASKING_MS = 1_500;

describe.skipIf(!hasChromium)(`drawSoon, the live screens' drawing ${CHROMIUM_NOTE}`, () => {
  it('draws asks together, and rests as long as each draw took before the next', async () => {
    const live = await liveServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, {});
    // Any page of the gateway's origin, so the module loads under the pages' own Content-Security-Policy.
    await page.goto(`http://127.0.0.1:${live.server.port}/display`);

    // A string, so that vitest's transform leaves the import() alone; the module is the one the screens load.
    await page.evaluate("import('/assets/app/dom.js').then((dom) => { window.drawSoon = dom.drawSoon; })");
    const { asks, draws, lastAsk } = await page.evaluate(async ({ drawMs, askingMs }) => {
      const { drawSoon } = window as unknown as { drawSoon: (draw: () => void) => () => void };
      const draws: Array<{ start: number; end: number }> = [];
      const soon = drawSoon(() => {
        const start = performance.now();
        while (performance.now() - start < drawMs); // a slow screen's layout of hundreds of cards
        draws.push({ start, end: performance.now() });
      });
      let asks = 0;
      let lastAsk = 0;
      const stopAt = performance.now() + askingMs;
      const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Asked as often as the page lets a stream's messages in: at every turn of the event loop.
      while (performance.now() < stopAt) {
        soon();
        asks += 1;
        lastAsk = performance.now();
        await later(0);
      }
      for (let waited = 0; !((draws.at(-1)?.start ?? -1) > lastAsk) && waited < 10_000; waited += 10) await later(10);
      return { asks, draws, lastAsk };
    }, { drawMs: DRAW_MS, askingMs: ASKING_MS });

    expect(draws.length).toBeGreaterThanOrEqual(3);
    expect(asks, `asks for ${draws.length} draws`).toBeGreaterThan(draws.length);
    // performance.now() is coarsened in a page that is not cross-origin isolated (100 µs steps in Chromium, with
    // jitter): each of the three readings compared may be off by a step, so a rest 0.1 ms short of its draw is the
    // clock, not drawSoon (a run failed on 44.2 ms against 44.3).
    const CLOCK_STEP_MS = 0.1;
    for (let i = 1; i < draws.length; i++) {
      const [before, next] = [draws[i - 1]!, draws[i]!];
      expect(next.start - before.end, `the rest before draw ${i + 1} of ${draws.length}`).toBeGreaterThanOrEqual(before.end - before.start - 3 * CLOCK_STEP_MS);
    }
    // The last ask is drawn, not dropped.
    expect(draws.at(-1)!.start).toBeGreaterThan(lastAsk);
    expect(pageErrors).toEqual([]);
  });
});
