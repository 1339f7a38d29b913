/**
 * A pay link a chat app took with the punctuation after it (`/pay/1001)`, `/pay/1001/`, `/pay/1001.?t=…`), or
 * otherwise not a pay page, opened in a browser: the pay page's own sentence for a link that is not valid, with the
 * 404 status kept, rather than raw JSON. An API client asking for JSON still gets the JSON 404.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { lookAt, PHONE, startServer } from './ordering-support.ts';

const NOT_VALID = 'This payment link is not valid. Check the link you were given.';

describe.skipIf(!hasChromium)(`a broken pay link ${CHROMIUM_NOTE}`, () => {
  it('shows a browser the page that says the link is not valid, 404, and answers JSON to a JSON client', { timeout: 90_000 }, async () => {
    const { base, api } = await startServer();
    const created = await api.createOrder({ size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA', name: 'Ada Lovelace', email: 'ada@example.com' });
    const t = encodeURIComponent(created.payToken);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });

    for (const path of ['/pay/1001/', `/pay/1001/?t=${t}`, '/pay/1001)', `/pay/1001.?t=${t}`, '/pay/abc?t=x', '/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E', '/pay/1001/extra']) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(response?.headers()['content-type'], path).toBe('text/html; charset=utf-8');
      expect(response?.headers()['x-frame-options'], path).toBe('DENY');
      expect(response?.headers()['referrer-policy'], path).toBe('no-referrer');
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 3_000 }).toBe(NOT_VALID);
      // Nothing from the address is in the page.
      expect(await page.content(), path).not.toContain('alert(1)');
      expect(await page.getByRole('link', { name: 'the ordering page' }).getAttribute('href')).toBe('/');
    }

    await lookAt(page, 'pay-link-not-valid');
    await page.emulateMedia({ colorScheme: 'dark' });
    await lookAt(page, 'pay-link-not-valid-dark');

    // The link as given still opens the pay page.
    const good = await page.goto(`${base}/pay/1001?t=${t}`);
    expect(good?.status()).toBe(200);
    await page.locator('#demo').waitFor({ state: 'visible', timeout: 5_000 });

    // An API client asking for JSON (or for anything) keeps the JSON 404 in the ordering family's shape.
    for (const accept of ['application/json', '*/*']) {
      const answer = await fetch(`${base}/pay/1001/`, { headers: { accept } });
      expect(answer.status, accept).toBe(404);
      expect(answer.headers.get('content-type'), accept).toBe('application/json; charset=utf-8');
      expect(((await answer.json()) as { code: string }).code).toBe('not_found');
    }
    expect(pageErrors).toEqual([]);
  });
});
