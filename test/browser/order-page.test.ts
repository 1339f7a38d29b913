/**
 * The ordering page at / in a real browser against a real server process: the rules shown as the user types,
 * the confirmation that spells the stitch text back, the order with its hold and countdown, the demo card, the
 * status live until ready, and the returning visitor. Also: the page's copy of the rules answers as the server's.
 */
import { describe, expect, it } from 'vitest';
import { emailProblem } from '../../src/kernel/email.ts';
import { checkOrderInput } from '../../src/orders/order-input.ts';
import { collectorMatches, nameProblem } from '../../src/orders/person-name.ts';
import { DEFAULT_OPTIONS } from '../../src/orders/sleeve-options.ts';
import { testGateway } from '../support/gateway.ts';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { DESKTOP, fillOrder, lookAt, PHONE, startServer } from './ordering-support.ts';

interface PageRules {
  stitchTextProblem(text: string, charLimit: number): string | null;
  nameProblem(name: string): string | null;
  emailProblem(email: string): string | null;
  collectorMatches(orderName: string, collectorName: string): boolean;
  spell(text: string): string;
}
// A plain browser module (no types of its own): imported by a computed path so TypeScript does not look for them.
const RULES_MODULE = '../../src/pages/app/rules.js';
const pageRules = async () => (await import(RULES_MODULE)) as PageRules;

/** The server's sentence for a stitch text, through the same check the API runs (null: accepted). */
function serverStitchProblem(stitchText: string, charLimit: number): string | null {
  const input = { email: 'a@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText };
  try {
    checkOrderInput(input, { ...DEFAULT_OPTIONS, charLimit, version: 1 });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the ordering page’s rules', () => {
  it('answer every input exactly as the server’s rules do, with the same sentences', async () => {
    const rules = await pageRules();
    const texts = ['ADA', 'ADA 1815', 'a.b-c&d', '', ' ADA', '.ADA', 'ÉCOLE', 'HI!', 'x'.repeat(20), 'x'.repeat(21), 'A\tB', 'Ada_L'];
    for (const text of texts) expect(rules.stitchTextProblem(text, 20), text).toBe(serverStitchProblem(text, 20));
    const names = ['Ada Lovelace', 'Ada', '', '  ', 'José Núñez', "Zoë O'Brien-Smith", 'Nguyễn Văn An', 'Ada www.evil.com',
      'Ada http://x', 'Ada example.com', 'Ada 1815', 'A B C D E F', 'x'.repeat(41), '. -', 'Mary-Jane O’Neil',
      // Counted on the stored form, in characters: spaces around and between words, letters beyond the BMP.
      `Ada${' '.repeat(30)}Lovelace`, `  ${'A'.repeat(18)} ${'B'.repeat(19)}  `, `${'𐐷'.repeat(11)} ${'𐐷'.repeat(11)}`, `${'𐐷'.repeat(21)} ${'𐐷'.repeat(20)}`];
    for (const name of names) expect(rules.nameProblem(name), name).toBe(nameProblem(name));
    const emails = ['ada@example.com', '', 'ada', 'ada@example', 'a b@example.com', '.ada@example.com', 'a..b@example.com',
      'ada@-example.com', `${'a'.repeat(250)}@example.com`, ' ada@example.com ', 'ada@exa_mple.com',
      'a\u0007b@example.com', 'a\u202eb@example.com', 'a\u200bb@example.com'];
    for (const email of emails) expect(rules.emailProblem(email), email).toBe(emailProblem(email));
    const collectors = ['Ada Lovelace', 'ada  lovelace', 'ADA LOVELACE', 'Ada King Lovelace', 'Ada', 'Grace Hopper', 'Ada Byron'];
    for (const order of ['Ada Lovelace', 'Ada Augusta Lovelace', 'José Núñez', 'Jean-Luc Picard', "Seán O'Connor", 'J. R. Tolkien']) {
      for (const c of [...collectors, 'Jose Nunez', 'Jean Luc Picard', 'Jean Picard', 'Sean O Connor', 'Sean OConnor', 'J R Tolkien']) expect(rules.collectorMatches(order, c), `${order}/${c}`).toBe(collectorMatches(order, c));
    }
    expect(rules.spell('ADA 1815')).toBe('A · D · A · space · 1 · 8 · 1 · 5');
  });
});

describe('the pages and their files', () => {
  it('serve / and /staff with modules and style sheets from this server only (no CDN), which send requests to /graphql only', async () => {
    const t = await testGateway();
    const linked: string[] = [];
    for (const path of ['/', '/staff']) {
      const page = await t.rest('GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      linked.push(...[...(page.body as string).matchAll(/(?:src|href)="([^"#]+)"/gu)].map((m) => m[1]!));
    }
    expect(linked.filter((url) => !url.startsWith('/'))).toEqual([]);
    const modules = linked.filter((url) => url.startsWith('/assets/app/'));
    expect(modules.length).toBeGreaterThanOrEqual(5);
    const seen = new Set<string>();
    // Every module a page loads, and every module those import, is served; none reaches past GraphQL or the host.
    while (modules.length) {
      const url = modules.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const file = await t.rest('GET', url);
      expect(file.status, url).toBe(200);
      expect(file.headers.get('content-type')).toBe(url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      const source = file.body as string;
      // No address of another server (the SVG namespace is a name, never fetched).
      expect(source.replaceAll('"http://www.w3.org/2000/svg"', ''), url).not.toMatch(/https?:\/\//u);
      // Requests go to /graphql only: no page reads a picture to recover data (issue 18: options are data).
      for (const [, target] of source.matchAll(/fetch\(([^,)]+)/gu)) expect(["'/graphql'"], url).toContain(target);
      expect(source, url).not.toMatch(/XMLHttpRequest|sendBeacon|new WebSocket/u);
      for (const [, name] of source.matchAll(/from '\.\/([\w-]+\.js)'/gu)) modules.push(`/assets/app/${name}`);
    }
    expect([...seen].filter((u) => u.endsWith('.js')).length).toBeGreaterThanOrEqual(10);
    for (const path of ['/assets/app/nope.js', '/assets/app/..%2Forder-page.ts', '/assets/app/order-page.ts']) {
      expect((await t.rest('GET', path)).status, path).toBe(404);
    }
  });
});

describe.skipIf(!hasChromium)(`the ordering page in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('orders with the rules shown while typing, confirms the spelled-back text, pays with the demo card and follows the status', { timeout: 90_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE, colorScheme: 'light' });
    await page.goto(base);
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 10_000 }).toBe('Live');

    // Every choice offered, each with its picture, drawn in the page from the option's data (Gold's colour). 'Live'
    // is the socket's state, not the options': they may be drawn a moment later (a full run once counted 0).
    await expect.poll(() => page.locator('input[name="size"]').count(), { timeout: 10_000 }).toBe(4);
    expect(decodeURIComponent((await page.locator('#threads img').first().getAttribute('src'))!)).toMatch(/^data:image\/svg\+xml;.*#c9a227/su);
    // Loaded (it may still be arriving on a busy machine: wait, bounded, rather than look once).
    await expect.poll(() => page.locator('#threads img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true);

    // The rules as the user types: the counter, the refused characters, the limit.
    const stitch = page.getByLabel('Text to stitch');
    await stitch.fill('ADA!');
    expect(await page.locator('#stitch-count').textContent()).toBe('4 of 20 characters');
    expect(await page.locator('#stitch-error').textContent()).toBe('These characters cannot be stitched: “!”.');
    // The error is shown as it appears and spoken once typing pauses (#stitch-said, live-regions.test.ts); the counter
    // is read with the field, not again on every keystroke.
    expect(await page.locator('#stitch-said').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#stitch-count').getAttribute('aria-live')).toBeNull();
    expect(await stitch.getAttribute('aria-invalid')).toBe('true');
    await stitch.fill('A'.repeat(21));
    expect(await page.locator('#stitch-error').textContent()).toBe('That is 21 characters; the limit is 20.');
    expect(await page.locator('#stitch-count').getAttribute('class')).toContain('over');
    await stitch.fill('ADA 1815');
    expect(await page.locator('#stitch-error').textContent()).toBe('');
    await page.getByLabel('First and last name').fill('Ada');
    await page.getByLabel('Email').focus();
    expect(await page.locator('#name-error').textContent()).toBe('Give a first and last name; they are checked at pickup.');
    // Going on with a missing choice is refused on the page, and focus goes to the first problem.
    await page.getByRole('button', { name: 'Review my order' }).click();
    expect(await page.locator('#choice-error').textContent()).toBe('Choose a size, a font and a thread.');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('size');
    await lookAt(page, 'order-form-errors');

    await fillOrder(page, { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA 1815', name: 'Ada Lovelace', email: 'ada@example.com' });
    // The confirmation spells the text back letter by letter before anything is created.
    expect(await page.locator('#confirm-text').textContent()).toBe('ADA 1815');
    expect(await page.locator('#confirm-spelled').textContent()).toBe('A · D · A · space · 1 · 8 · 1 · 5');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('confirm');
    await lookAt(page, 'order-confirm');
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();

    // The order: its deadline, a countdown that moves, and both ways to pay.
    await page.locator('#order').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#order-number').textContent()).toBe('1001');
    expect(await page.locator('#hold-until').textContent()).toMatch(/^(.+, )?\d{1,2}:\d{2} [AP]M ET$/u);
    // In the page's words: the order's `message` (for agents) tells how to pay, which the two ways below show.
    expect(await page.locator('#order-message').textContent()).toBe('Order 1001 is reserved for you, and not paid yet.');
    const countdown = page.locator('#countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 3_000 }).toMatch(/^4:5\d$/u);
    const first = await countdown.textContent();
    await expect.poll(() => countdown.textContent(), { timeout: 3_000 }).not.toBe(first);
    // Screen readers hear the time left when the countdown appears, then each minute (not every second), in words:
    // "4:58" may be read as a time of day.
    expect(await page.locator('#countdown-announce').textContent()).toMatch(/^4 minutes 5\d seconds left to pay\.$/u);
    expect(await page.locator('#countdown-announce').getAttribute('aria-live')).toBe('polite');
    const payLink = page.getByRole('link', { name: 'Open the payment page (opens in a new tab)', exact: true });
    expect(await payLink.getAttribute('href')).toMatch(new RegExp(`^${base}/pay/1001\\?t=.+`, 'u'));
    expect(await page.getByRole('button', { name: 'Pay with the demo card' }).isVisible()).toBe(true);
    expect(await page.locator('#steps [aria-current=step]').textContent()).toBe('Reserved');
    await lookAt(page, 'order-held');

    // The pay page at that address knows the order (the visitor may pay there instead).
    const payPage = await page.context().newPage();
    await payPage.goto((await payLink.getAttribute('href'))!);
    await expect.poll(() => payPage.locator('#spelled').textContent(), { timeout: 5_000 }).toBe('A · D · A · space · 1 · 8 · 1 · 5');
    await payPage.close();

    await page.getByRole('button', { name: 'Pay with the demo card' }).click();
    await expect.poll(() => page.locator('#pay-result').textContent(), { timeout: 5_000 }).toContain('paid and received');
    // The pressed button went away with the ways to pay: the keyboard is on the order's sentence, not the body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('order-message');
    await page.locator('#hold').waitFor({ state: 'hidden' });
    expect(await page.locator('#steps [aria-current=step]').textContent()).toBe('Paid');

    // Staff move it forward: the page follows live, to the pickup instructions.
    await api.staff('mutation { advanceOrder(orderNumber: "1001", status: IN_PROGRESS) { status } }');
    await expect.poll(() => page.locator('#order-message').textContent(), { timeout: 3_000 }).toBe('Order 1001 is being embroidered now.');
    expect(await api.markReady('1001')).toBe('READY');
    await page.locator('#pickup').waitFor({ state: 'visible', timeout: 3_000 });
    expect(await page.locator('#pickup-number').textContent()).toBe('1001');
    expect(await page.locator('#order-message').textContent()).toContain('ready. Collect it at the order pickup station');
    await lookAt(page, 'order-ready');

    // A returning visitor on the same device sees the order again.
    await page.reload();
    await page.locator('#pickup').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#order-number').textContent()).toBe('1001');
    expect(await page.locator('#order-spelled').textContent()).toBe('A · D · A · space · 1 · 8 · 1 · 5');
    expect(await page.locator('#start').isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);

    // Only the visitor's own order number and payToken are kept, and a tag of the email (to know it again), never the email.
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!));
    expect(Object.keys(kept).sort()).toEqual(['emailTag', 'orderNumber', 'payToken']);
    expect(kept.emailTag).toMatch(/^[0-9a-f]{8}$/u);
    expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain('@');
  });

  it('can be used with the keyboard alone, answers a second order for the same email with the server’s sentence, and follows a payment made on the pay page', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const ada = await api.createOrder({ email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' });
    await api.pay('1001', ada.payToken);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP, colorScheme: 'dark' });
    await page.goto(base);
    await page.locator('#sizes input').first().waitFor({ state: 'attached' });
    // Keyboard only: arrows pick within a group, Tab moves on, Enter submits.
    await page.locator('input[name="size"]').first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('input[name="size"]:checked').getAttribute('value')).toBe('14-inch');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.type('GRACE');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Enter');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-spelled').textContent()).toBe('G · R · A · C · E');
    await lookAt(page, 'order-confirm-dark');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#order').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#order-number').textContent()).toBe('1002');
    await lookAt(page, 'order-held-dark');
    expect(pageErrors).toEqual([]);

    // Another device, Ada's email again: her order is paid, so the server refuses with its own sentence.
    const other = await openPage(browser, { viewport: PHONE });
    await other.page.goto(base);
    const again = { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ADA@example.com' };
    await other.page.locator('#sizes input').first().waitFor({ state: 'attached' });
    await fillOrder(other.page, again);
    await other.page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => other.page.locator('#confirm-error').textContent(), { timeout: 5_000 }).toBe('An order already exists for this email. Only one order per email is allowed.');
    expect(await other.page.locator('#order').isVisible()).toBe(false);
    // Focus is not dropped on the body: it is on the way forward the error asks for.
    await expect.poll(() => other.page.evaluate(() => document.activeElement?.id)).toBe('confirm-edit');
    // Grace's email while her order is still held: the duplicate carries its payToken, so that order is shown.
    await other.page.getByRole('button', { name: 'Change something' }).click();
    await other.page.getByLabel('First and last name').fill('Grace Hopper');
    await other.page.getByLabel('Email').fill('grace@example.com');
    await other.page.getByRole('button', { name: 'Review my order' }).click();
    await other.page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await other.page.locator('#order').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await other.page.locator('#order-number').textContent()).toBe('1002');
    expect(await other.page.locator('#order-text').textContent()).toBe('GRACE');
    // Said as what it is: the order already held for that email, not a new one.
    expect(await other.page.locator('#order-note').textContent()).toMatch(/already waiting for payment: this is that order\. Nothing new was ordered\.$/u);
    expect(other.pageErrors).toEqual([]);

    // The other way to pay: the payment page, opened from the order in a new tab. Both open order pages follow.
    const [payTab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Open the payment page' }).click()]);
    await payTab.locator('#demo').click();
    await expect.poll(() => payTab.locator('#status').textContent(), { timeout: 5_000 }).toContain('paid and received');
    for (const p of [page, other.page]) {
      await expect.poll(() => p.locator('#steps [aria-current=step]').textContent(), { timeout: 5_000 }).toBe('Paid');
      expect(await p.locator('#hold').isVisible()).toBe(false);
    }
  });
  it('shows the hold running out live, then lets the visitor start again', { timeout: 60_000 }, async () => {
    const { base } = await startServer({ HOLD_SECONDS: '3' });
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE });
    await page.goto(base);
    await page.locator('#sizes input').first().waitFor({ state: 'attached' });
    await fillOrder(page, { size: '13-inch', font: 'Serif', thread: 'Silver', stitchText: 'LATE', name: 'Ada Lovelace', email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await page.locator('#hold').waitFor({ state: 'visible', timeout: 5_000 });
    // Nobody pays: the server cancels at holdUntil and the page says so without a reload.
    await page.locator('#hold').waitFor({ state: 'hidden', timeout: 10_000 });
    expect(await page.locator('#order-message').textContent()).toMatch(/cancelled/u);
    expect(await page.locator('#steps').isVisible()).toBe(false);
    await lookAt(page, 'order-cancelled');
    await page.getByRole('button', { name: 'Order another sleeve' }).click();
    expect(await page.locator('#start').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('stitchText');
    expect(await page.evaluate(() => localStorage.getItem('sleeve.order'))).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
