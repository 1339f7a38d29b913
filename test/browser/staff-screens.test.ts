/**
 * The staff console at the event (issue 18), in real Chromium, opened at 127.0.0.1 while PUBLIC_URL says localhost
 * (a proxy, a LAN address): publishing options that change only the text limit keeps every thread's colour (REST,
 * GraphQL and the pictures), because the console reads the colours from the options and never from a picture on
 * another origin; "Collected and cancelled" counts the orders that were done before the console opened, and tiles
 * them. Screenshots of the queue and the options at every screen size.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../src/orders/sleeve-options.ts';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { signInToStaff } from './ordering-support.ts';
import { crossOriginServer, screenshotEverySize } from './screens.ts';

const LAPTOP = { width: 1366, height: 768 };
const COLORS = DEFAULT_OPTIONS.threads.map((t) => [t.value, t.color]);

describe.skipIf(!hasChromium)(`the staff console at the event ${CHROMIUM_NOTE}`, () => {
  it('keeps every thread colour when only the text limit is published from another origin, and counts the orders done before it opened', { timeout: 90_000 }, async () => {
    const { base, rest, gql, adminToken, gateway } = await crossOriginServer();
    const { orders, staff } = gateway.services;
    // Two cancelled, one collected, and some in the queue, before anyone opens the console.
    const made: string[] = [];
    for (const [i, name] of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Hedy Lamarr', 'Radia Perlman', 'Katherine Johnson'].entries()) {
      const { order, payToken } = await orders.create({ email: `s${i}@example.com`, name, size: '13-inch', font: 'Block', thread: COLORS[i]![0]!, stitchText: `S ${i}` });
      if (i > 0) await orders.pay(order.orderNumber, { t: payToken, method: 'vendor_card' });
      made.push(order.orderNumber);
    }
    await staff.cancel(made[0]!, 'Changed her mind');
    await staff.cancel(made[1]!, 'Thread ran out');
    await staff.advance(made[2]!, 'ready');
    await staff.collect(made[2]!, 'Alan Turing');
    await staff.advance(made[3]!, 'ready');
    await staff.advance(made[4]!, 'in progress');

    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== base) elsewhere.push(request.url());
    });
    await signInToStaff(page, base, adminToken);
    await page.locator(`#order-${made[5]}`).waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#done summary').textContent()).toBe('Collected and cancelled (3)');
    await page.locator('#done summary').click();
    expect(await page.locator('#done-list .order').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.orderNumber))).toEqual([made[2], made[1], made[0]]);
    // Side by side on a laptop, as the columns above: they stood one per line, each as wide as the page.
    const tops = await page.locator('#done-list .order').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    await screenshotEverySize(page, 'staff-queue');

    // Only the limit changes.
    await page.getByRole('link', { name: 'Options & info' }).click();
    const threads = page.getByLabel('Threads, one per line: name and colour');
    await expect.poll(() => threads.inputValue(), { timeout: 5_000 }).toBe(COLORS.map(([v, c]) => `${v} ${c}`).join('\n'));
    await page.getByLabel('Stitch text limit (1 to 60 characters)').fill('12');
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => page.locator('#options-result').textContent(), { timeout: 5_000 }).toBe('Published: version 2 is offered now.');
    await screenshotEverySize(page, 'staff-options');

    // Every colour survived, on both doors and in the pictures.
    const listed = (await rest('GET', '/api/sleeve-options')).body;
    expect(listed.charLimit).toBe(12);
    expect(listed.threadChoices.map((c: any) => [c.value, c.color])).toEqual(COLORS);
    expect(listed.fontChoices.map((c: any) => c.family)).toEqual(DEFAULT_OPTIONS.fonts.map((f) => f.family));
    const graph = await gql('{ sleeveOptions { version threadChoices { value color } } }');
    expect(graph.data.sleeveOptions.threadChoices.map((c: any) => [c.value, c.color])).toEqual(COLORS);
    for (const [value, color] of COLORS) {
      const image = await (await fetch(`${base}/images/options/thread/${value}.svg`)).text();
      expect(image, value).toContain(`fill="${color}"`);
      const preview = await (await fetch(`${base}/preview.svg?size=13-inch&font=Block&thread=${value}&text=ADA`)).text();
      expect(preview, value).toContain(`fill="${color}"`);
    }
    expect(elsewhere).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
