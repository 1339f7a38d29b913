/**
 * /docs in a real browser (docs/agents.md#openapi-document): Redoc, served by this server from its own node_modules,
 * renders /openapi.json under the page's strict policy — a nonce for the style elements Redoc writes, a blob: worker
 * for its search, no 'unsafe-inline' — with nothing fetched from another host, no policy violation and no console
 * error.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, DESKTOP, hasChromium, launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

describe.skipIf(!hasChromium)(`the API reference at /docs in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('renders every area of /openapi.json from this server alone, within its policy', { timeout: 90_000 }, async () => {
    const { server } = await liveServer();
    const base = `http://127.0.0.1:${server.port}`;
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    const elsewhere: string[] = [];
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window.cspViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });

    const answer = await page.goto(`${base}/docs`);
    const policy = answer!.headers()['content-security-policy']!;
    expect(policy).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/u);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');

    // The title, each area's tag, and operations of documents 1, 2 and 3 in the rendered reference.
    await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).toMatch(/Sleeve Gateway/u);
    const menu = page.locator('.menu-content');
    for (const tag of ['Ordering', 'Decision platform', 'Tokenization', 'Claims and evidence', 'Webhook endpoints', 'Operations']) {
      await expect.poll(() => menu.getByText(tag, { exact: true }).count()).toBeGreaterThan(0);
    }
    const content = page.locator('.api-content');
    for (const summary of ['Create an order (held unpaid for 5 minutes)', 'Pay an order', 'Create a merchant (a new site)', 'Tokenize a card']) {
      await expect.poll(() => content.getByText(summary, { exact: true }).count()).toBeGreaterThan(0);
    }
    await expect.poll(() => content.getByText('/api/orders/{orderNumber}/pay').count()).toBeGreaterThan(0);

    // Search runs in Redoc's blob: worker.
    await page.getByPlaceholder('Search...').pressSequentially('merchant', { delay: 20 });
    await expect.poll(() => page.locator('[data-role="search:results"]').textContent(), { timeout: 10_000 }).toContain('Create a merchant (a new site)');

    await screenshot(page, 'api-docs-desktop');
    expect(await page.evaluate(() => window.cspViolations ?? [])).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
