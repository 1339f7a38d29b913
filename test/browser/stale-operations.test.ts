/**
 * Pages open across a deploy that changed one of their operations (docs/graphql.md#trusted-documents): the server
 * answers their old hash PERSISTED_QUERY_NOT_FOUND and runs nothing. Each page reloads itself for the new hashes
 * (src/pages/app/graphql.js, at most once a minute) instead of refusing every press: the ordering page keeps what
 * was typed across the reload, and the pay page says nothing was charged. Real Chromium, in-process gateway.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage, PHONE } from '../support/browser.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { fillOrder } from './ordering-support.ts';

/**
 * A page in Chromium whose first load holds a hash of `name` the server does not know (opened before a deploy that
 * changed that operation); every reload gets the real operations.js. `loads()`: how many times the page has loaded.
 */
async function openedBeforeDeploy(name: string) {
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
  let loads = 0;
  page.on('load', () => loads++);
  await page.route('**/assets/app/operations.js', async (route) => {
    if (loads > 0) return route.continue();
    const response = await route.fetch();
    const body = (await response.text()).replace(new RegExp(`("${name}": ")[0-9a-f]{8}`, 'u'), '$1deadbeef');
    await route.fulfill({ response, body });
  });
  return { page, pageErrors, loads: () => loads };
}

const ORDER = { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA 1815', name: 'Ada Lovelace', email: 'ada@example.com' };

describe.skipIf(!hasChromium)(`pages whose operation the server no longer knows ${CHROMIUM_NOTE}`, () => {
  it('the ordering page reloads when confirming is refused unrun, with the form as it was, and then orders', { timeout: 90_000 }, async () => {
    const live = await liveServer();
    const { page, pageErrors, loads } = await openedBeforeDeploy('CreateOrder');
    await page.goto(`http://127.0.0.1:${live.server.port}/`);
    await fillOrder(page, ORDER);
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(loads, { timeout: 30_000 }).toBe(2);

    await page.locator('#start').waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => page.getByLabel('Text to stitch').inputValue(), { timeout: 10_000 }).toBe(ORDER.stitchText);
    expect(await page.getByLabel('First and last name').inputValue()).toBe(ORDER.name);
    expect(await page.getByLabel('Email').inputValue()).toBe(ORDER.email);
    for (const kind of ['size', 'font', 'thread'] as const) {
      expect(await page.locator(`input[name="${kind}"][value="${ORDER[kind]}"]`).isChecked(), kind).toBe(true);
    }
    expect(await page.evaluate(() => sessionStorage.getItem('sleeve.formBeforeReload'))).toBeNull();
    expect(await live.gateway.database.db.selectFrom('orders').select('order_number').execute()).toEqual([]);

    await page.getByRole('button', { name: 'Review my order' }).click();
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#order').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await live.gateway.database.db.selectFrom('orders').select('order_number').execute()).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  it('the staff console reloads when signing in is refused unrun, and is signed in with the token typed', { timeout: 90_000 }, async () => {
    const live = await liveServer();
    const { page, pageErrors, loads } = await openedBeforeDeploy('StaffSignIn');
    await page.goto(`http://127.0.0.1:${live.server.port}/staff`);
    await page.getByLabel('Admin token').fill(live.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(loads, { timeout: 30_000 }).toBe(2);
    await page.locator('#console').waitFor({ state: 'visible', timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });

  it('the pay page says nothing was charged, reloads, and then pays', { timeout: 90_000 }, async () => {
    const live = await liveServer();
    const base = `http://127.0.0.1:${live.server.port}`;
    const created = (await (await fetch(`${base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) })).json()) as {
      orderNumber: string;
      payToken: string;
    };
    const { page, pageErrors, loads } = await openedBeforeDeploy('PayPagePay');
    const status = async () => (await live.gateway.database.db.selectFrom('orders').select('status').executeTakeFirstOrThrow()).status;
    await page.goto(`${base}/pay/${created.orderNumber}?t=${created.payToken}`);
    await page.locator('#demo').waitFor({ state: 'visible', timeout: 30_000 });
    // As if it had reloaded for new operations 56 s ago: the next reload waits out the minute, and the page says why.
    await page.evaluate(() => sessionStorage.setItem('sleeve.reloadedForOperations', String(Date.now() - 56_000)));
    await page.locator('#demo').click();
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 10_000 }).toMatch(/Nothing was charged/u);
    expect(loads()).toBe(1);
    expect(await status()).toBe('awaiting payment');

    await expect.poll(loads, { timeout: 30_000 }).toBe(2);
    await page.locator('#demo').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('#demo').click();
    await expect.poll(status, { timeout: 30_000 }).toBe('received');
    expect(pageErrors).toEqual([]);
  });
});
