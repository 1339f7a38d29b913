/**
 * The embroidery preview in real Chromium (issue 18): on `/` it follows the text, the font and the thread as the
 * attendee types and chooses; what is typed never becomes markup; the confirmation, the order and the pay page
 * show the same picture as the API's previewImage; the option captions are readable; the sentence asking for the
 * choices goes once they are made. The pay page spells like `/`, has its header, says "paid" once and shows a
 * decline in its card. The page is opened at 127.0.0.1 while PUBLIC_URL says localhost.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { fillOrder, fillCard } from './ordering-support.ts';
import { crossOriginServer, screenshotEverySize } from './screens.ts';

const LAPTOP = { width: 1366, height: 768 };

/** The SVG an <img> shows: decoded from its data: address, or fetched from its path. */
async function shownSvg(image: Locator, base: string): Promise<string> {
  const src = (await image.getAttribute('src'))!;
  if (src.startsWith('data:')) return decodeURIComponent(src.slice(src.indexOf(',') + 1));
  return (await fetch(new URL(src, base))).text();
}

/** The SVG parsed by the browser: whether it is well-formed, its elements' names and its first text. */
function parsed(page: Page, svg: string) {
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const text = doc.querySelector('text');
    return {
      wellFormed: !doc.querySelector('parsererror'),
      elements: [...doc.querySelectorAll('*')].map((e) => e.localName),
      text: text?.textContent ?? null,
      fill: text?.getAttribute('fill') ?? null,
      family: text?.getAttribute('font-family') ?? null,
    };
  }, svg);
}

describe.skipIf(!hasChromium)(`the embroidery preview in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('follows text, font and thread as they change, and shows the same picture in the confirmation, the order, the pay page and the API', { timeout: 90_000 }, async () => {
    const { base, publicUrl, rest, gql } = await crossOriginServer();
    const options = (await rest('GET', '/api/sleeve-options')).body;
    const look = (list: string, value: string) => options[list].find((c: any) => c.value === value);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== base) outside.push(request.url());
    });
    await page.goto(base);
    await page.locator('#sizes input').first().waitFor({ state: 'attached' });
    const preview = page.locator('#preview-image');

    // Readable captions: text beside each tile, not 6 px inside its picture.
    const captions = await page.locator('.choice span').evaluateAll((spans) => spans.map((s) => parseFloat(getComputedStyle(s).fontSize)));
    expect(Math.min(...captions)).toBeGreaterThanOrEqual(15);
    for (const tile of await page.locator('.choice img').all()) expect(await shownSvg(tile, base)).not.toMatch(/(sleeve|thread|font)<\/text>/u);

    // The sentence asking for the choices follows them and goes once all three are made.
    await page.getByRole('button', { name: 'Review my order' }).click();
    expect(await page.locator('#choice-error').textContent()).toBe('Choose a size, a font and a thread.');
    await page.locator('input[name="size"][value="15-inch"]').check();
    expect(await page.locator('#choice-error').textContent()).toBe('Choose a font and a thread.');
    await page.locator('input[name="font"][value="Script"]').check();
    await page.locator('input[name="thread"][value="Navy"]').check();
    expect(await page.locator('#choice-error').textContent()).toBe('');
    expect(await page.locator('#choice-error').isVisible()).toBe(false);

    // The live preview: each change of text, font and thread draws anew (the picture's pixels change too).
    const stitch = page.getByLabel('Text to stitch');
    await stitch.fill('ADA & CO');
    const steps: Array<{ svg: string; pixels: Buffer }> = [];
    const snap = async () => steps.push({ svg: await shownSvg(preview, base), pixels: await preview.screenshot() });
    await snap();
    expect(await parsed(page, steps[0]!.svg)).toMatchObject({ wellFormed: true, text: 'ADA & CO', fill: look('threadChoices', 'Navy').color, family: look('fontChoices', 'Script').family });
    expect(await preview.getAttribute('alt')).toBe('Preview: “ADA & CO” stitched in Script with Navy thread on a 15-inch sleeve');
    await page.locator('input[name="thread"][value="Gold"]').check();
    await snap();
    expect((await parsed(page, steps[1]!.svg)).fill).toBe('#c9a227');
    await page.locator('input[name="font"][value="Serif"]').check();
    await snap();
    expect((await parsed(page, steps[2]!.svg)).family).toBe(look('fontChoices', 'Serif').family);
    await stitch.press('End');
    await stitch.pressSequentially(' 1815');
    await snap();
    expect((await parsed(page, steps[3]!.svg)).text).toBe('ADA & CO 1815');
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.pixels.equals(steps[i - 1]!.pixels), `step ${i}`).toBe(false);
    await screenshotEverySize(page, 'order-form');
    // On a phone the same picture sits under the text field, where the typing happens.
    expect(await shownSvg(page.locator('#preview-image-inline'), base)).toBe(steps[3]!.svg);

    // Typed markup stays text: the picture holds exactly its own elements.
    await stitch.fill('<svg onload=alert(1)>&amp;</text><script>');
    const hostile = await parsed(page, await shownSvg(preview, base));
    expect(hostile).toMatchObject({ wellFormed: true, text: '<svg onload=alert(1)>&amp;</text><script>' });
    expect(hostile.elements).toEqual(['svg', 'title', 'rect', 'rect', 'rect', 'text', 'text']);

    // The confirmation shows the picture /preview.svg serves for the same order, byte for byte.
    await fillOrder(page, { size: '15-inch', font: 'Serif', thread: 'Gold', stitchText: 'ADA & CO', name: 'Ada Lovelace', email: 'ada@example.com' });
    const confirmed = await shownSvg(page.locator('#confirm-image'), base);
    const address = `/preview.svg?size=15-inch&font=Serif&thread=Gold&text=ADA%20%26%20CO`;
    expect(confirmed).toBe(await (await fetch(`${base}${address}`)).text());
    await screenshotEverySize(page, 'order-confirm');
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#order').waitFor({ state: 'visible' });
    await expect.poll(() => page.locator('#order-image').getAttribute('src')).toBe(address);
    await expect.poll(() => page.locator('#order-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
    await screenshotEverySize(page, 'order-placed');

    // The API gives agents the same picture, at PUBLIC_URL, with no token in it.
    const mine = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!));
    const graph = await gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { previewImage payUrl } }', { n: mine.orderNumber, t: mine.payToken });
    expect(graph.data.order.previewImage).toBe(`${publicUrl}${address}`);
    const lookup = await rest('GET', `/api/orders/${mine.orderNumber}?t=${encodeURIComponent(mine.payToken)}`);
    expect(lookup.body.previewImage).toBe(`${publicUrl}${address}`);

    // The pay page: its header, the same picture, the text spelled as `/` spells it.
    const pay = await openPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    pay.page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== base) outside.push(request.url());
    });
    const payUrl = new URL(graph.data.order.payUrl);
    await pay.page.goto(`${base}${payUrl.pathname}${payUrl.search}`);
    await expect.poll(() => pay.page.locator('#spelled').textContent(), { timeout: 5_000 }).toBe('A · D · A · space · & · space · C · O');
    expect(await page.locator('#confirm-spelled').textContent()).toBe('A · D · A · space · & · space · C · O');
    expect(await pay.page.locator('header .brand').textContent()).toBe('Sleeve');
    await expect.poll(() => pay.page.locator('#preview').getAttribute('src')).toBe(address);
    await expect.poll(() => pay.page.locator('#preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
    await screenshotEverySize(pay.page, 'pay');

    // A declined card: said inside the pay card, beside the form.
    await fillCard(pay.page, '4000 0000 0000 0002');
    await pay.page.getByRole('button', { name: 'Pay $1.00' }).click();
    await expect.poll(() => pay.page.locator('#result').textContent(), { timeout: 10_000 }).toContain('declined');
    expect(await pay.page.locator('#result').evaluate((e) => e.closest('.card')?.id ?? null)).toBe('pay');
    await screenshotEverySize(pay.page, 'pay-declined');

    // Paid with the demo card: the order's sentence, once.
    await pay.page.getByRole('button', { name: /demo card/u }).click();
    await pay.page.locator('#pay').waitFor({ state: 'hidden', timeout: 10_000 });
    const paidSentence = (await pay.page.locator('#status').textContent())!;
    expect(paidSentence).toContain('paid and received');
    const body = await pay.page.locator('body').innerText();
    expect(body.split(paidSentence).length - 1).toBe(1);
    await screenshotEverySize(pay.page, 'pay-paid');

    expect(outside).toEqual([]);
    expect([...pageErrors, ...pay.pageErrors]).toEqual([]);
  });
});
