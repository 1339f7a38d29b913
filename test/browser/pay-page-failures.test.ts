/**
 * The pay page when the network fails it (review finding 1), in real Chromium against a real server process: a
 * payment whose answer never comes says in words that it could not be confirmed and that paying again never charges
 * twice (never "Paying…" left standing), and the page reads the order again by itself to show what became of it; a
 * first read that fails says so and is tried again by itself, with growing waits.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage, PHONE } from '../support/browser.ts';
import { startServer, fillCard } from './ordering-support.ts';

const ADA = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };
const COULD_NOT_CONFIRM = /could not confirm the payment.*never be charged twice/su;
/** Generous bounds for a loaded runner: the page's own waits are a few seconds. */
const RECOVER_MS = 20_000;

/** A server process, a browser page, and one fresh order's pay address on that process. */
async function payPageSetup() {
  const { base, api } = await startServer();
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
  const created = await api.createOrder(ADA);
  const payUrl = new URL(created.payUrl as string);
  return { base, api, page, pageErrors, created, address: `${base}${payUrl.pathname}${payUrl.search}` };
}

const isOperation = (route: Route, name: string) =>
  route.request().method() === 'POST' && (route.request().postData() ?? '').includes(`"operationName":"${name}"`);

/**
 * Every text the element `id` shows, in order (a MutationObserver installed before the page's own script runs): a
 * text the page replaces within moments is seen too.
 */
async function record(page: Page, id: string): Promise<string[]> {
  const shown: string[] = [];
  await page.exposeFunction(`${id}Shows`, (text: string) => shown.push(text));
  await page.addInitScript((id) => {
    let last = '';
    new MutationObserver(() => {
      const text = document.getElementById(id)?.textContent ?? '';
      if (text !== last) (window as unknown as Record<string, (t: string) => void>)[`${id}Shows`]!((last = text));
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, id);
  return shown;
}

const buttonsEnabled = (page: Page) => page.evaluate(() => ['card-pay', 'wallet-pay', 'demo'].every((id) => !(document.getElementById(id) as HTMLButtonElement).disabled));

describe.skipIf(!hasChromium)(`the pay page when the network fails ${CHROMIUM_NOTE}`, () => {
  it('paying offline says the payment could not be confirmed; back online it shows the order as it is, and paying again pays', { timeout: 90_000 }, async () => {
    const { page, pageErrors, address } = await payPageSetup();
    await page.goto(address);
    await expect.poll(() => page.locator('#spelled').textContent(), { timeout: 10_000 }).toBe('A · D · A');
    await page.locator('#pay').waitFor({ state: 'visible' });

    await page.context().setOffline(true);
    await page.locator('#demo').click();
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 10_000 }).toMatch(COULD_NOT_CONFIRM);
    expect(await page.locator('#result').getAttribute('class')).toBe('bad');
    await expect.poll(() => buttonsEnabled(page)).toBe(true);
    expect(await page.locator('#pay').isVisible()).toBe(true);

    // Back online: the order is read again by itself, and the line says what is true now (nothing went through).
    await page.context().setOffline(false);
    await expect.poll(() => page.locator('#result').textContent(), { timeout: RECOVER_MS }).toMatch(/not paid yet/u);
    expect(await page.locator('#pay').isVisible()).toBe(true);
    expect(await page.locator('#status').textContent()).not.toMatch(/paid and received/u);

    await page.locator('#demo').click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 10_000 }).toContain('paid and received');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(pageErrors).toEqual([]);
  });

  it('a card payment whose answer is lost after the server took it: the page finds the order paid by itself, with one card token', { timeout: 90_000 }, async () => {
    const { page, pageErrors, address } = await payPageSetup();
    // No live updates (graphql-ws's script never loads): only the page's own reading again can learn the outcome.
    await page.route('**/assets/graphql-ws.js', (route) => route.abort('connectionreset'));
    let lost = false;
    await page.route('**/graphql', async (route) => {
      if (lost || !isOperation(route, 'PayPagePay')) return route.continue();
      lost = true;
      await route.fetch(); // the server pays…
      await route.abort('connectionreset'); // …and its answer is lost on the way back
    });
    const tokenRequests: string[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/card-token')) tokenRequests.push(request.url()); });
    const said = await record(page, 'result');
    await page.goto(address);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 10_000 });

    await fillCard(page, '4242 4242 4242 4242');
    await page.locator('#card-pay').click();
    // Said (the page may read the order again and replace it within moments), then read again: paid. The pay form
    // goes, and the status says so.
    await expect.poll(() => said.some((text) => COULD_NOT_CONFIRM.test(text)), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator('#status').textContent(), { timeout: RECOVER_MS }).toContain('paid and received');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(lost).toBe(true);
    expect(tokenRequests).toHaveLength(1);
    expect(said.at(-1)).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('a first read answered with a proxy\'s HTML 502 says so, then shows the order by itself', { timeout: 60_000 }, async () => {
    const { page, pageErrors, address } = await payPageSetup();
    let failed = 0;
    await page.route('**/graphql', (route) => {
      if (failed > 0 || !isOperation(route, 'PayPageOrder')) return route.continue();
      failed++;
      return route.fulfill({ status: 502, contentType: 'text/html', body: '<html>502 Bad Gateway</html>' });
    });
    const shown = await record(page, 'status');
    await page.goto(address);
    await expect.poll(() => page.locator('#spelled').textContent(), { timeout: RECOVER_MS }).toBe('A · D · A');
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    expect(failed).toBe(1);
    expect(shown.some((text) => /could not be loaded/u.test(text))).toBe(true);
    expect(await page.locator('#status').textContent()).toMatch(/waiting for payment|awaiting payment|reserved|held/iu);
    expect(await page.locator('#status').getAttribute('class')).not.toBe('bad');
    expect(pageErrors).toEqual([]);
  });

  it('a wrong token is still a link that is not valid, and is not asked about again', { timeout: 60_000 }, async () => {
    const { page, pageErrors, address } = await payPageSetup();
    let reads = 0;
    page.on('request', (request) => { if ((request.postData() ?? '').includes('"operationName":"PayPageOrder"')) reads++; });
    await page.goto(address.replace(/t=[^&]+/u, 't=wrong'));
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 10_000 }).toBe('This payment link is not valid. Check the link you were given.');
    await page.waitForTimeout(2_000);
    expect(reads).toBe(1);
    // The order number is the link's; no summary of "…" placeholders, no empty picture frame.
    expect(await page.locator('h1').textContent()).toBe(`Sleeve order ${new URL(address).pathname.split('/').pop()}`);
    expect(await page.locator('#summary').isHidden()).toBe(true);
    expect(await page.locator('#preview').boundingBox()).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('a first read that keeps failing is tried again with growing waits, not in a loop, until it comes', { timeout: 60_000 }, async () => {
    const { page, pageErrors, address } = await payPageSetup();
    let down = true;
    let tries = 0;
    await page.route('**/graphql', (route) => {
      if (!isOperation(route, 'PayPageOrder')) return route.continue();
      tries++;
      return down ? route.abort('connectionreset') : route.continue();
    });
    await page.goto(address);
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 5_000 }).toMatch(/could not be loaded/u);
    await page.waitForTimeout(6_000);
    // Waits of about 1, 2, 4 s (with some jitter): three to five tries in six seconds; a loop would make hundreds.
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(5);
    down = false;
    await expect.poll(() => page.locator('#spelled').textContent(), { timeout: RECOVER_MS }).toBe('A · D · A');
    expect(pageErrors).toEqual([]);
  });
});
