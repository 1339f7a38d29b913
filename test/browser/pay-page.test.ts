/**
 * The hosted pay page at payUrl in a real browser against a real server process: the order summary (with the
 * stitch text spelled letter by letter), the live countdown, and paying with the demo card.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, client, DESKTOP, hasChromium, launchBrowser, openPage, pauseClockSoon, PHONE, screenshot } from '../support/browser.ts';
import { ADMIN_TOKEN, lookAt, startServer } from './ordering-support.ts';

const ADA = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };

/** A server process (ordering-support.ts) and one fresh order's pay address. */
async function serverWithOrder(extraEnv: Record<string, string> = {}) {
  const { base, api } = await startServer(extraEnv);
  return {
    base,
    api,
    /** Creates the order and returns the create body and its pay address (payUrl, on this process). */
    async order() {
      const created = await api.createOrder(ADA);
      const payUrl = new URL(created.payUrl as string);
      expect(payUrl.pathname).toBe(`/pay/${created.orderNumber}`);
      return { created, address: `${base}${payUrl.pathname}${payUrl.search}` };
    },
  };
}


describe.skipIf(!hasChromium)(`the pay page in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('shows the order and a countdown, and pays with the demo card', { timeout: 60_000 }, async () => {
    const { base, order } = await serverWithOrder();
    // The browser first, so the order's five minutes are still at 4:5x when the page loads.
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
    const { created, address } = await order();
    await page.goto(address);

    // The summary, once the order has loaded.
    await expect.poll(() => page.locator('#spelled').textContent(), { timeout: 5_000 }).toBe('A · D · A');
    expect(await page.locator('#number').textContent()).toBe(created.orderNumber);
    expect(await page.locator('#size').textContent()).toBe('13-inch');
    expect(await page.locator('#font').textContent()).toBe('Block');
    expect(await page.locator('#thread').textContent()).toBe('Gold');
    expect(await page.locator('#text').textContent()).toBe('ADA');
    // A five-minute hold, counting down.
    const countdown = page.locator('#countdown');
    expect(await countdown.isVisible()).toBe(true);
    expect(await countdown.textContent()).toMatch(/^4:5\d$/u);
    const first = await countdown.textContent();
    await expect.poll(() => countdown.textContent(), { timeout: 3_000 }).not.toBe(first);
    expect(await page.locator('#deadline').textContent()).toMatch(/^Pay before .+, or the order is cancelled\.$/u);
    expect(await page.locator('#demo').isEnabled()).toBe(true);
    await screenshot(page, 'pay-phone');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'pay-desktop');
    await page.setViewportSize(PHONE);

    // Pay with the demo card: the paid message, and the pay section and countdown go away.
    await page.locator('#demo').click();
    // The order's own sentence says so, once (the result line stays empty: it would repeat it).
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 5_000 }).toContain('paid and received');
    expect(await page.locator('#result').textContent()).toBe('');
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await countdown.isVisible()).toBe(false);
    expect(await page.locator('#deadline').textContent()).toBe('');
    expect(pageErrors).toEqual([]);
    await screenshot(page, 'pay-paid-phone');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'pay-paid-desktop');

    // The server agrees.
    const lookup = await client(base, ADMIN_TOKEN).rest('GET', `/api/orders/${created.orderNumber}?t=${encodeURIComponent(created.payToken)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.status).toBe('received');
  });

  it('counts down one second per second', { timeout: 60_000 }, async () => {
    const { order } = await serverWithOrder();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    const { address } = await order();
    await page.clock.install();
    await page.goto(address);
    const countdown = page.locator('#countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).toMatch(/^4:5\d$/u);
    // Stop the page's clock somewhere inside a second; one late timer (a busy or backgrounded tab: jump 1.3 s, due
    // timers fire once, late); then step a second at a time. Each step must take exactly one second off.
    await pauseClockSoon(page);
    await page.clock.fastForward(1_300);
    const seconds = async () => {
      const [m, s] = (await countdown.textContent())!.split(':').map(Number);
      return m! * 60 + s!;
    };
    const seen = [await seconds()];
    for (let i = 0; i < 8; i++) {
      await page.clock.runFor(1_000);
      seen.push(await seconds());
    }
    expect(seen.slice(1).map((s, i) => seen[i]! - s)).toEqual(Array(8).fill(1));
    expect(pageErrors).toEqual([]);
  });

  it('at the end of the hold shows the cancellation, asking the server again only once or twice', { timeout: 60_000 }, async () => {
    const { order } = await serverWithOrder({ HOLD_SECONDS: '3' });
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    let requests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/graphql') requests++;
    });
    const shown: string[] = [];
    await page.exposeFunction('countdownShows', (text: string) => shown.push(text));
    await page.addInitScript(() => {
      let last = '';
      new MutationObserver(() => {
        const el = document.getElementById('countdown');
        const text = el && !el.hidden ? (el.textContent ?? '') : '';
        if (text && text !== last) (window as unknown as { countdownShows: (t: string) => void }).countdownShows((last = text));
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const { address } = await order();
    await page.goto(address);
    await page.locator('#pay').waitFor({ state: 'visible', timeout: 5_000 });
    const again = page.getByRole('link', { name: 'Order another sleeve' });
    expect(await again.isVisible()).toBe(false);
    await page.locator('#pay').waitFor({ state: 'hidden', timeout: 10_000 });
    expect(await page.locator('#status').textContent()).toMatch(/cancelled/u);
    expect(await page.locator('#countdown').isVisible()).toBe(false);
    // Cancelled, the page is no dead end: it links to the ordering page (it had no way on but the browser's back).
    expect(await again.isVisible()).toBe(true);
    expect(new URL((await again.getAttribute('href'))!, address).href).toBe(new URL('/', address).href);
    // Down a second at a time, never back up, and no burst of requests while the server still says 0:00.
    const values = shown.map((t) => Number(t.split(':')[1]));
    expect(values.at(-1)).toBe(0);
    expect(values.slice(1).every((v, i) => v === values[i]! - 1)).toBe(true);
    expect(requests).toBeLessThanOrEqual(4);
    expect(pageErrors).toEqual([]);
    await lookAt(page, 'pay-expired');
  });
});
