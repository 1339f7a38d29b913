/** The four screens issue 18 names, for the browser suites that look at every page at every size; ready orders for the board. */
import type { Page } from 'playwright-core';
import { startServer } from '../../src/server.ts';
import { freePort } from '../support/browser.ts';
import { afterThisTest, testGateway, type TestGateway } from '../support/gateway.ts';
import { lookAtSizes } from './ordering-support.ts';

export const SCREENS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
  { name: '1080p', viewport: { width: 1920, height: 1080 } },
  { name: '4k', viewport: { width: 3840, height: 2160 } },
] as const;

/** `lookAtSizes` at each of the four screens: `test-output/screenshots/<name>-<screen>.png`. */
export function screenshotEverySize(page: Page, name: string): Promise<void> {
  return lookAtSizes(page, name, SCREENS);
}

/**
 * An in-process gateway on a real port of 127.0.0.1 whose PUBLIC_URL names it `localhost`: the pages are opened at
 * 127.0.0.1, another origin than PUBLIC_URL's (as behind a proxy or on a LAN address), and the test reaches the
 * services directly to set the scene fast.
 */
export async function crossOriginServer() {
  const port = await freePort();
  const t = await testGateway({ env: { PUBLIC_URL: `http://localhost:${port}` } });
  const server = await startServer(t.gateway, { port, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  return { ...t, base: `http://127.0.0.1:${port}`, publicUrl: `http://localhost:${port}` };
}

/**
 * Makes orders ready through the services (fast) until `ready` holds `count` of their numbers, each paid with the
 * demo card first; `nameOf(i)` names the i-th.
 */
export async function readyOrdersUpTo(services: TestGateway['gateway']['services'], ready: string[], count: number, nameOf: (i: number) => string) {
  while (ready.length < count) {
    const i = ready.length + 1;
    const input = { email: `guest${i}@example.com`, name: nameOf(i), size: '13-inch', font: 'Block', thread: 'Gold', stitchText: `G ${i}` };
    const { order, payToken } = await services.orders.create(input);
    await services.orders.pay(order.orderNumber, { t: payToken, method: 'vendor_card' });
    await services.staff.advance(order.orderNumber, 'ready');
    ready.push(order.orderNumber);
  }
}
