/** The four screens issue 18 names, for the browser suites that look at every page at every size. */
import type { Page } from 'playwright-core';
import { screenshot } from '../support/browser.ts';

export const SCREENS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
  { name: '1080p', viewport: { width: 1920, height: 1080 } },
  { name: '4k', viewport: { width: 3840, height: 2160 } },
] as const;

/** `test-output/screenshots/<name>-<screen>.png` at each of the four screens; leaves the viewport as it was. */
export async function screenshotEverySize(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const screen of SCREENS) {
    await page.setViewportSize(screen.viewport);
    await screenshot(page, `${name}-${screen.name}`);
  }
  if (before) await page.setViewportSize(before);
}
