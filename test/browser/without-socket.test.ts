/**
 * The live screens without their live connection (src/pages/app/read-while-down.js), in real Chromium against a real
 * server: the venue's address holds its bound of sockets (MAX_CONNECTIONS_PER_ADDRESS=1 here, the one place taken
 * by another client), so the screen's WebSocket is refused with 429. Before, the pickup display said "Reconnecting…"
 * and showed no order for as long as that lasted, and the staff console's queue stood still. Now the display reads
 * the board over HTTP every 5 s and the console its queue every 10 s; each says it is not live and as of when, shows
 * what changed meanwhile, and goes live again once a place is free.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { afterThisTest } from '../support/gateway.ts';
import { liveServer, type LiveServer } from '../support/live-server.ts';
import { readyOrdersUpTo } from './screens.ts';

/** Another client of the same address, holding its one place: initialised (or the server closes it after 3 s), answering pings. */
async function placeHolder(live: LiveServer): Promise<WebSocket> {
  const holder = new WebSocket(live.wsUrl, 'graphql-transport-ws');
  afterThisTest(async () => holder.terminate());
  await new Promise((resolve, reject) => holder.once('open', resolve).once('error', reject));
  holder.send(JSON.stringify({ type: 'connection_init' }));
  holder.on('message', (data) => {
    if (JSON.parse(String(data)).type === 'ping') holder.send(JSON.stringify({ type: 'pong' }));
  });
  return holder;
}

describe.skipIf(!hasChromium)(`the live screens when their socket is refused ${CHROMIUM_NOTE}`, () => {
  it('the pickup display reads the board over HTTP, says it is not live, shows new ready orders, and goes live once it can', { timeout: 90_000 }, async () => {
    const live = await liveServer({ env: { MAX_CONNECTIONS_PER_ADDRESS: '1' } });
    const ready: string[] = [];
    await readyOrdersUpTo(live.gateway.services, ready, 1, () => 'Ada Lovelace');
    const holder = await placeHolder(live);

    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: { width: 1366, height: 768 } });
    const consoleLines: string[] = [];
    page.on('console', (message) => void consoleLines.push(message.text()));
    await page.goto(`http://127.0.0.1:${live.server.port}/display`);
    const state = page.locator('#state');
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toMatch(/^Not live: as of \d{1,2}:\d{2}:\d{2}.*, checked every 5 s$/u);
    // The socket was refused by the server's bound, not lost some other way.
    expect(consoleLines.some((line) => /Unexpected response code: 429/u.test(line)), consoleLines.join('\n')).toBe(true);
    expect(await page.locator('#board li').evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.orderNumber))).toEqual(ready);

    // Made ready while the screen is not live: shown at the next look, within 5 s.
    await readyOrdersUpTo(live.gateway.services, ready, 2, () => 'Grace Hopper');
    await expect.poll(() => page.locator('#board li').count(), { timeout: 10_000 }).toBe(2);

    // The place is free again: the display's socket gets it, and the screen is live (no more polling).
    holder.close();
    await expect.poll(() => state.textContent(), { timeout: 45_000 }).toBe('Live');
    await readyOrdersUpTo(live.gateway.services, ready, 3, () => 'Katherine Johnson');
    await expect.poll(() => page.locator('#board li').count(), { timeout: 5_000 }).toBe(3);
    expect(pageErrors).toEqual([]);
  });

  it('the staff console reads its queue over HTTP every 10 s, says so, and goes live once it can', { timeout: 90_000 }, async () => {
    const live = await liveServer({ env: { MAX_CONNECTIONS_PER_ADDRESS: '1' } });
    const { services } = live.gateway;
    const holder = await placeHolder(live);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: { width: 1920, height: 1080 } });
    await page.goto(`http://127.0.0.1:${live.server.port}/staff`);
    await page.getByLabel('Admin token').fill(live.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const conn = page.locator('#conn');
    await expect.poll(() => conn.textContent(), { timeout: 20_000 }).toMatch(/^Not live: queue as of \d{1,2}:\d{2}:\d{2}.*, read every 10 s$/u);

    // Paid while the console is not live: in its queue at the next read.
    const { order, payToken } = await services.orders.create({ email: 'grace@example.com', name: 'Grace Hopper', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'GH' });
    await services.orders.pay(order.orderNumber, { t: payToken, method: 'vendor_card' });
    await page.locator(`#order-${order.orderNumber}`).waitFor({ state: 'visible', timeout: 15_000 });

    holder.close();
    await expect.poll(() => conn.textContent(), { timeout: 45_000 }).toBe('Live');
    expect(pageErrors).toEqual([]);
  });
});
