/**
 * What a screen reader meets on the staff console (an accessibility review, findings F6 and F8), in real Chromium
 * against a real server process: signing in with no token says so, tied to the field, as the portal does (it said
 * nothing and only kept focus there); a card's stitch text and a column's count are named by words in the page, not
 * by aria-label on a div or span without a role, which Chromium ignores and other screen readers drop.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { ADMIN_TOKEN, DESKTOP, startServer, signInToStaff } from './ordering-support.ts';

const ORDER = { email: 'ada@example.com', name: 'Ada Lovelace', size: '14-inch', font: 'Block', thread: 'Silver', stitchText: 'ADA 1815' };

describe.skipIf(!hasChromium)(`the staff console for screen readers ${CHROMIUM_NOTE}`, () => {
  it('says an empty token is missing, marks the field and unmarks it once typed', { timeout: 60_000 }, async () => {
    const { base } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await page.goto(`${base}/staff`);
    const token = page.getByLabel('Admin token');
    await token.press('Enter');
    await expect.poll(() => page.locator('#token-error').textContent(), { timeout: 2_000 }).toBe('Enter the admin token.');
    expect(await page.locator('#token-error').getAttribute('role')).toBe('alert');
    expect(await token.getAttribute('aria-invalid')).toBe('true');
    expect(await token.getAttribute('aria-describedby')).toContain('token-error');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token');
    await token.fill(ADMIN_TOKEN);
    expect(await token.getAttribute('aria-invalid')).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('names a card\'s stitch text and a column\'s count in words a screen reader reads', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const created = await api.createOrder(ORDER);
    await api.pay(created.orderNumber, created.payToken);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await signInToStaff(page, base);
    const card = page.locator('#order-1001');
    await card.waitFor({ timeout: 5_000 });
    expect(await card.ariaSnapshot()).toContain('Stitch text: ADA 1815');
    expect(await page.getByRole('heading', { name: 'Received 1 order', exact: true }).count()).toBe(1);
    // No ARIA a generic element may not carry (axe's aria-prohibited-attr counted 49 on a full queue).
    expect(await page.locator('#columns div[aria-label], #columns span[aria-label]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
