/**
 * The staff console at /staff in a real browser against a real server process, beside an attendee's ordering
 * page and the pickup display: staff move a paid order to ready (the attendee's page and /display show it), check
 * the collector's name (a mismatch refused, the right name accepted) and mark it collected; cancel with a reason;
 * edit the options (an open ordering page changes without a reload) and the event information; deep links.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { profileAccess } from '../platform/support.ts';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { afterThisTest } from '../support/gateway.ts';
import { ADMIN_TOKEN, DESKTOP, fillOrder, lookAt, PHONE, signInToStaff, startServer } from './ordering-support.ts';

const SITE_ID = 'site_browser';
const SITE_KEY = 'key_browser';
const PLATFORM_HEADERS = {
  authorization: `Basic ${Buffer.from(`${SITE_ID}:${SITE_KEY}`).toString('base64')}`,
  'x-vendor-siteid': SITE_ID,
  'api-version': '10.3',
};

/** A merchant endpoint on port 0 that accepts every notification and notes its webhook-id. */
async function merchantReceiver() {
  const received: Array<{ path: string; webhookId: string }> = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ path: request.url ?? '', webhookId: String(request.headers['webhook-id']) });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterThisTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const card = (page: Page, n: string) => page.locator(`#order-${n}`);
const columnOf = (page: Page, n: string) => card(page, n).evaluate((el) => el.closest('.column')?.getAttribute('data-status') ?? 'DONE');

describe.skipIf(!hasChromium)(`the staff console in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('moves an attendee’s paid order to ready, checks the name at pickup and marks it collected', { timeout: 120_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();

    // The attendee orders on a phone and pays with the demo card.
    const attendee = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
    await attendee.page.goto(base);
    await attendee.page.locator('#sizes input').first().waitFor({ state: 'attached' });
    await fillOrder(attendee.page, { size: '15-inch', font: 'Script', thread: 'Navy', stitchText: 'ADA & CO', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(await attendee.page.locator('#confirm-spelled').textContent()).toBe('A · D · A · space · & · space · C · O');
    await attendee.page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await attendee.page.getByRole('button', { name: 'Pay with the demo card' }).click();
    await expect.poll(() => attendee.page.locator('#steps [aria-current=step]').textContent(), { timeout: 5_000 }).toBe('Paid');

    const display = await openPage(browser, { viewport: DESKTOP });
    await display.page.goto(`${base}/display`);

    // Staff sign in: a wrong token is refused; the right one is kept for this tab only.
    const staff = await openPage(browser, { viewport: DESKTOP, colorScheme: 'light' });
    const { page } = staff;
    await page.goto(`${base}/staff`);
    await lookAt(page, 'staff-sign-in');
    await signInToStaff(page, base, 'not-the-token');
    await expect.poll(() => page.locator('#token-error').textContent(), { timeout: 5_000 }).toBe('That token is not the admin token.');
    expect(await page.locator('#token').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await card(page, '1001').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.evaluate(() => [sessionStorage.getItem('sleeve.staffToken'), localStorage.length])).toEqual([ADMIN_TOKEN, 0]);
    expect(await columnOf(page, '1001')).toBe('RECEIVED');
    expect(await card(page, '1001').locator('.stitch').textContent()).toBe('Stitch text: ADA & CO');
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');

    // A new order appears in the queue live (orderEvents), without a reload.
    const grace = await api.createOrder({ email: 'grace@example.com', name: 'Grace Hopper', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'COBOL' });
    await card(page, '1002').waitFor({ state: 'visible', timeout: 3_000 });
    expect(await columnOf(page, '1002')).toBe('AWAITING_PAYMENT');
    await api.pay('1002', grace.payToken);
    await expect.poll(() => columnOf(page, '1002'), { timeout: 3_000 }).toBe('RECEIVED');

    // One click each to move 1001 forward; the attendee's page follows.
    await page.getByRole('button', { name: 'Start stitching #1001' }).click();
    await expect.poll(() => columnOf(page, '1001'), { timeout: 3_000 }).toBe('IN_PROGRESS');
    await expect.poll(() => attendee.page.locator('#steps [aria-current=step]').textContent(), { timeout: 3_000 }).toBe('Being stitched');
    await page.getByRole('button', { name: 'Mark ready #1001' }).click();
    await expect.poll(() => columnOf(page, '1001'), { timeout: 3_000 }).toBe('READY');
    // Ready: on the attendee's page with the pickup instructions, and on the pickup display.
    await attendee.page.locator('#pickup').waitFor({ state: 'visible', timeout: 3_000 });
    await display.page.locator('li[data-order-number="1001"]').waitFor({ state: 'visible', timeout: 3_000 });
    expect(await display.page.locator('li[data-order-number="1001"] .name').textContent()).toBe('Ada L.');
    await lookAt(page, 'staff-queue');
    await lookAt(display.page, 'display-with-ready-order');

    // The pickup check: a mismatch is shown and refused by the server, the right name is accepted.
    await page.getByRole('button', { name: 'Hand over… #1001' }).click();
    const collector = page.getByLabel('Collector’s first and last name');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('collector');
    await collector.fill('Ada Byron');
    expect(await page.locator('#collector-match').textContent()).toBe('✗ Mismatch: this is not the name on the order.');
    await lookAt(page, 'staff-pickup-mismatch');
    await page.getByRole('button', { name: 'Mark collected' }).click();
    await expect.poll(() => page.locator('#pickup-error').textContent(), { timeout: 3_000 }).toMatch(/name/iu);
    // Marked at fault, described by the refusal, and the keyboard still on it (not the body).
    expect(await collector.getAttribute('aria-invalid')).toBe('true');
    expect(await collector.getAttribute('aria-describedby')).toContain('pickup-error');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('collector');
    expect((await api.staff('{ orders(status: [READY]) { edges { node { orderNumber } } } }')).orders.edges).toEqual([{ node: { orderNumber: '1001' } }]);
    await collector.fill('  ada   LOVELACE ');
    expect(await page.locator('#collector-match').textContent()).toBe('✓ Match: first and last name agree with the order.');
    await page.getByRole('button', { name: 'Mark collected' }).click();
    await page.locator('#pickup-dialog').waitFor({ state: 'hidden', timeout: 3_000 });
    expect(await columnOf(page, '1001')).toBe('DONE');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('queue-title');
    await expect.poll(() => attendee.page.locator('#order-message').textContent(), { timeout: 3_000 }).toBe('Order 1001 has been collected. Enjoy the sleeve!');
    expect(await attendee.page.getByRole('button', { name: 'Order another sleeve' }).isVisible()).toBe(true);
    await display.page.locator('li[data-order-number="1001"]').waitFor({ state: 'detached', timeout: 3_000 });

    // Cancel with a reason: an empty reason is refused on the page; the reason is kept.
    await page.getByRole('button', { name: 'Cancel… #1002' }).click();
    await page.getByRole('button', { name: 'Cancel the order' }).click();
    // The reason is staff's record: the attendee's message says only that staff cancelled it (docs/ordering.md).
    expect(await page.locator('#cancel-error').textContent()).toBe('Give a reason, for the staff record (the attendee is told only that staff cancelled the order).');
    expect(await page.locator('#cancel-reason').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#cancel-reason').getAttribute('aria-describedby')).toBe('cancel-error');
    expect(await page.getByLabel('Reason').evaluate((input) => (input as HTMLInputElement).labels![0]!.textContent)).toMatch(/for staff only: the attendee is told that staff cancelled it, not why/u);
    await page.getByLabel('Reason').fill('Thread ran out');
    await page.getByRole('button', { name: 'Cancel the order' }).click();
    await page.locator('#cancel-dialog').waitFor({ state: 'hidden', timeout: 3_000 });
    expect(await columnOf(page, '1002')).toBe('DONE');
    expect(await card(page, '1002').textContent()).toContain('Cancelled: Thread ran out');
    const cancelled = await api.staff('{ orders(status: [CANCELLED]) { edges { node { orderNumber cancelReason } } } }');
    expect(cancelled.orders.edges).toEqual([{ node: { orderNumber: '1002', cancelReason: 'Thread ran out' } }]);

    // Deep links from the notification dashboard.
    await page.goto(`${base}/staff#/orders/1001`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 5_000 }).toBe('order-1001');
    expect(await page.locator('#done').getAttribute('open')).toBe('');
    const follow = async (hash: string, note: RegExp) => {
      await page.evaluate((h) => { location.hash = h; }, hash);
      await expect.poll(() => page.locator('#route-note').textContent(), { timeout: 5_000 }).toMatch(note);
    };
    await follow('#/accounts/acc_42', /^No account acc_42 is known\.$/u);
    await follow('#/item-listings/ev_7', /^Item listing ev_7: .*decideItemListing\.$/u);
    await follow('#/item-listings/ev_7?site=site_b', /^Item listing ev_7 of site site_b: .*decideItemListing and its siteId\.$/u);
    await follow('#/claims/clm_3', /^Claim clm_3: /u);
    await follow('#/orders/ord_5', /^Platform order ord_5: .*decideOrder\.$/u);
    await follow('#/orders/9999', /^There is no order 9999: /u);
    expect([staff.pageErrors, attendee.pageErrors, display.pageErrors]).toEqual([[], [], []]);

    // A fresh tab (another session) must sign in again: the token is not kept past the tab.
    const other = await openPage(browser, { viewport: DESKTOP });
    await other.page.goto(`${base}/staff`);
    expect(await other.page.getByLabel('Admin token').isVisible()).toBe(true);
  });

  it('publishes edited options that an open ordering page shows without a reload, edits the event information, and redelivers a notification', { timeout: 90_000 }, async () => {
    const merchant = await merchantReceiver();
    const { base } = await startServer({ MERCHANT_ENDPOINT: merchant.url, VENDOR_SITE_ID: SITE_ID, VENDOR_API_KEY: SITE_KEY });
    const browser = await launchBrowser();
    const attendee = await openPage(browser, { viewport: PHONE });
    await attendee.page.goto(base);
    // The attendee is at the confirmation, with Red thread and 15 characters, when staff publish.
    await attendee.page.locator('#sizes input').first().waitFor({ state: 'attached' });
    await fillOrder(attendee.page, { size: '13-inch', font: 'Block', thread: 'Red', stitchText: 'A'.repeat(15), name: 'Ada Lovelace', email: 'ada@example.com' });

    // This staff member's device is in dark mode: the checks of lookAt apply to that palette too.
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP, colorScheme: 'dark' });
    await signInToStaff(page, base);
    await page.getByRole('link', { name: 'Options & info' }).click();
    const threads = page.getByLabel('Threads, one per line: name and colour');
    // The current set, colours included, ready to edit.
    await expect.poll(() => threads.inputValue(), { timeout: 5_000 }).toBe('Gold #c9a227\nSilver #b8bcc2\nNavy #1f2f5c\nRed #c0262d\nWhite #f7f7f2\nBlack #151515');
    await threads.fill('Gold #c9a227\nNavy #1f2f5c\nTeal #0f766e');
    // A limit the server refuses marks that field, described by the refusal, and puts the keyboard on it.
    const limit = page.getByLabel('Stitch text limit (1 to 60 characters)');
    await limit.fill('0');
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => limit.getAttribute('aria-invalid'), { timeout: 5_000 }).toBe('true');
    expect(await page.locator('#options-result').textContent()).toMatch(/charLimit/u);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('opt-charlimit');
    await limit.fill('12');
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => page.locator('#options-result').textContent(), { timeout: 3_000 }).toBe('Published: version 2 is offered now.');
    await lookAt(page, 'staff-options-dark');

    // The open ordering page goes back to the form: Teal appears with its image, Red is gone and the chosen Red
    // is reported, the limit is 12 now.
    // Bounded waits, generous for a busy shared machine: the change travels staff page → server → subscription.
    await attendee.page.locator('#start').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await attendee.page.locator('#confirm').isVisible()).toBe(false);
    await attendee.page.locator('input[name="thread"][value="Teal"]').waitFor({ state: 'attached', timeout: 10_000 });
    expect(await attendee.page.locator('input[name="thread"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['Gold', 'Navy', 'Teal']);
    expect(await attendee.page.locator('#withdrawn').textContent()).toBe('No longer offered: thread Red. Please choose again.');
    expect(await attendee.page.locator('#stitch-count').textContent()).toBe('15 of 12 characters');
    expect(await attendee.page.locator('#stitch-error').textContent()).toBe('That is 15 characters; the limit is 12.');
    const teal = await (await fetch(`${base}/images/options/thread/Teal.svg`)).text();
    expect(teal).toContain('#0f766e');
    await lookAt(attendee.page, 'order-options-changed');

    // A set the server refuses: its sentence is shown.
    await page.getByLabel('Sizes, one per line').fill('');
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => page.locator('#options-result').textContent(), { timeout: 3_000 }).toBe('At least one value is needed in sizes.');

    // The event information.
    await page.getByLabel(/^Agenda, speakers/u).fill('Doors open at 9. Sleeves at booth 12.');
    await page.getByRole('button', { name: 'Save event information' }).click();
    await expect.poll(() => page.locator('#info-result').textContent(), { timeout: 3_000 }).toContain('Saved');
    expect(await (await fetch(`${base}/llms-full.txt`)).text()).toBe('Doors open at 9. Sleeves at booth 12.');

    // Notification deliveries: an account decision sends one to the merchant; staff see it and redeliver it.
    const decided = await fetch(`${base}/v2/accounts/profile-access/h-1`, {
      method: 'POST',
      headers: { ...PLATFORM_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify(profileAccess({ accountOwner: { email: 'review@vendor.test', firstName: 'Ada', lastName: 'Lovelace' } })),
    });
    expect(decided.status).toBe(200);
    await expect.poll(() => merchant.received.length, { timeout: 5_000 }).toBe(1);
    await page.getByRole('link', { name: 'Notifications' }).click();
    const row = page.locator('#notifications-table tbody tr');
    await expect.poll(() => row.count(), { timeout: 5_000 }).toBe(1);
    const id = merchant.received[0]!.webhookId;
    expect(await row.getAttribute('data-id')).toBe(id);
    await expect.poll(() => row.locator('td').allInnerTexts(), { timeout: 5_000 }).toEqual(
      expect.arrayContaining([id, 'Account update\n/accountupdatenotification', 'Delivered', 'acct-1']),
    );
    await page.getByRole('button', { name: `Redeliver ${id}` }).click();
    await expect.poll(() => page.locator('#notifications-state').textContent(), { timeout: 5_000 }).toBe(`Notification ${id} is queued for redelivery.`);
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.id)).toBe(id);
    // The merchant gets it again, with the same webhook-id (docs/notifications.md#message-ids).
    await expect.poll(() => merchant.received.map((r) => r.webhookId), { timeout: 5_000 }).toEqual([id, id]);
    // The account the notification is about, through its dashboard link.
    await page.evaluate(() => { location.hash = '#/accounts/acct-1'; });
    await expect.poll(() => page.locator('#route-note').textContent(), { timeout: 5_000 })
      .toBe('Account acct-1: NOT_REVIEWED (SANDBOX_EMAIL). Change it with the GraphQL mutation reviewAccount.');
    // The notification's own link names the account's site (docs/platform.md#accounts-per-site).
    await page.evaluate((h) => { location.hash = h; }, `#/accounts/acct-1?site=${encodeURIComponent(SITE_ID)}`);
    await expect.poll(() => page.locator('#route-note').textContent(), { timeout: 5_000 })
      .toBe(`Account acct-1 of site ${SITE_ID}: NOT_REVIEWED (SANDBOX_EMAIL). Change it with the GraphQL mutation reviewAccount.`);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await lookAt(page, 'staff-notifications-dark');
    expect(pageErrors).toEqual([]);
  });
  it('reads the queue again after its connection was lost, so changes made meanwhile are not missed', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    // The page's WebSocket goes through the test, which can cut it and refuse new ones for a while.
    let cut = false;
    const sockets: Array<{ close: () => Promise<void> }> = [];
    await page.routeWebSocket(/\/graphql$/u, (ws) => {
      if (cut) return void ws.close();
      ws.connectToServer();
      sockets.push(ws);
    });
    await signInToStaff(page, base);
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');
    const ada = await api.createOrder({ email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' });
    await api.pay('1001', ada.payToken);
    await expect.poll(() => columnOf(page, '1001'), { timeout: 5_000 }).toBe('RECEIVED');
    const grace = await api.createOrder({ email: 'grace@example.com', name: 'Grace Hopper', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'COBOL' });
    await expect.poll(() => columnOf(page, grace.orderNumber), { timeout: 5_000 }).toBe('AWAITING_PAYMENT');

    cut = true;
    await Promise.all(sockets.map((ws) => ws.close()));
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Reconnecting…');
    expect(await api.markReady('1001')).toBe('READY');
    await api.staff('mutation { cancelOrder(orderNumber: "1002", reason: "Changed her mind") { status } }');
    // Missed while cut off…
    expect(await columnOf(page, '1001')).toBe('RECEIVED');
    expect(await columnOf(page, '1002')).toBe('AWAITING_PAYMENT');
    cut = false;
    // …and right again once it reconnects (jittered backoff, at most 10 s).
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 15_000 }).toBe('Live');
    await expect.poll(() => columnOf(page, '1001'), { timeout: 5_000 }).toBe('READY');
    // The order cancelled meanwhile has left the columns.
    await expect.poll(() => page.locator('#columns #order-1002').count(), { timeout: 5_000 }).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
