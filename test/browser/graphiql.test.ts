/**
 * GraphiQL at /graphql in a real browser with the network cut off: every asset comes from this server (the event's
 * network may have no internet), and the default query runs. Any request to another host fails the test.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, DESKTOP, hasChromium, launchBrowser, openPage, screenshot } from '../support/browser.ts';
import { liveServer } from '../support/live-server.ts';

describe.skipIf(!hasChromium)(`GraphiQL in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('loads from this server alone and runs the default query', { timeout: 60_000 }, async () => {
    const { server } = await liveServer();
    const base = `http://127.0.0.1:${server.port}`;
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    const elsewhere: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await page.goto(`${base}/graphql`);
    await page.locator('.graphiql-execute-button').click({ timeout: 20_000 });
    await expect.poll(() => page.locator('.graphiql-response').textContent(), { timeout: 10_000 }).toMatch(/"charLimit":\s*20/u); // the editor renders spaces as no-break spaces
    await screenshot(page, 'graphiql-desktop');
    expect(elsewhere).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
