/**
 * The staff console during a burst, in real Chromium on a slow laptop (Chrome's CPU throttling): 200 orders are
 * created, paid and made ready within a second or two, 600 `orderEvents`, and the queue must show them all soon
 * after. Each event redrew the whole queue at once, so the console fell behind by the sum of every draw: here it
 * showed the last of them 52–67 s after the server had made it ready (100 orders: 13 s). Drawn together (dom.js's
 * drawSoon), it shows them 0.8 s after.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, DESKTOP, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';
import { BURST, burstUntilShown, countChanges, throttle } from './burst.ts';

describe.skipIf(!hasChromium)(`the staff console during a burst ${CHROMIUM_NOTE}`, () => {
  it(`shows all ${BURST} orders made ready in a burst on a slow laptop`, { timeout: 180_000 }, async () => {
    const live = await liveServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    const changes = countChanges(page);
    await page.goto(`http://127.0.0.1:${live.server.port}/staff`);
    await page.getByLabel('Admin token').fill(live.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#columns section[data-status="READY"]').waitFor();
    await throttle(page);

    const column = (status: string) => page.locator(`#columns section[data-status="${status}"] li.order`);
    const readyCount = () => column('READY').count();
    const ready = await burstUntilShown(live, page, { drawn: '#columns', shown: readyCount, expected: BURST, changes });
    const shown = await column('READY').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.orderNumber));
    expect(shown).toEqual([...ready].sort((a, b) => Number(a) - Number(b)));
    for (const status of ['AWAITING_PAYMENT', 'RECEIVED', 'IN_PROGRESS']) expect(await column(status).count()).toBe(0);
    expect(await page.locator('#columns section[data-status="READY"] h2 .meta').textContent()).toBe(String(BURST));
    expect(pageErrors).toEqual([]);
  });
});
