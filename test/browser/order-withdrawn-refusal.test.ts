/**
 * Staff withdraw a choice (the font Script) while an attendee is on the confirmation and the page's live connection
 * is stalled (a venue's Wi-Fi: the socket delivers nothing). "Yes" is refused by the server, naming the field. The
 * page must then read the options again, stop offering the withdrawn choice, and say what to choose again, with focus
 * on that sentence, as it does when the change arrives live. Before, the tiles still offered Script, selected, and
 * the attendee looped: review, "Yes", refused.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { fillOrder, PHONE, startServer } from './ordering-support.ts';

const fontTiles = (page: Page) => page.evaluate(() => [...document.querySelectorAll<HTMLInputElement>('#fonts input')].map((i) => `${i.value}${i.checked ? '*' : ''}`));

describe.skipIf(!hasChromium)(`a choice withdrawn while the live connection is stalled ${CHROMIUM_NOTE}`, () => {
  it('is read again when the server refuses it, no longer offered, and the page says to choose again', { timeout: 90_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    // The page's WebSocket goes through the test, which can stop everything the server sends on it (this socket and
    // any the page opens again), as a stalled venue network does, for as long as the test needs.
    let stalled = false;
    await page.routeWebSocket(/\/graphql$/u, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => { if (!stalled) ws.send(message); });
      ws.onMessage((message) => server.send(message));
    });
    await page.goto(base);
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');
    await fillOrder(page, { size: '13-inch', font: 'Script', thread: 'Gold', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' });

    stalled = true;
    const current = await api.staff('{ sleeveOptions { sizes fontChoices { value family } threadChoices { value color } charLimit } }');
    const { sizes, fontChoices, threadChoices, charLimit } = current.sleeveOptions;
    const input = { sizes: sizes.map((value: string) => ({ value })), fonts: fontChoices.filter((c: { value: string }) => c.value !== 'Script'), threads: threadChoices, charLimit };
    await api.staff(`mutation { updateSleeveOptions(input: ${JSON.stringify(input).replace(/"(\w+)":/gu, '$1:')}) { version } }`);

    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#start').waitFor({ state: 'visible', timeout: 5_000 });
    await expect.poll(() => fontTiles(page), { timeout: 10_000 }).toEqual(['Block', 'Serif', 'Monogram']);
    expect(await page.locator('#withdrawn').textContent()).toBe('No longer offered: font Script. Please choose again.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 3_000 }).toBe('withdrawn');
    expect(stalled, 'the live connection delivered nothing meanwhile').toBe(true);

    // "Review my order" asks for a font now rather than going round the refused confirmation again.
    await page.getByRole('button', { name: 'Review my order' }).click();
    expect(await page.locator('#choice-error').textContent()).toBe('Choose a font.');
    expect(await page.locator('#confirm').isHidden()).toBe(true);
    await page.locator('input[name="font"][value="Serif"]').check();
    await page.getByRole('button', { name: 'Review my order' }).click();
    expect(await page.locator('#confirm-font').textContent()).toBe('Serif');
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#order').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#order-font').textContent()).toBe('Serif');
    expect(pageErrors).toEqual([]);
  });
});
