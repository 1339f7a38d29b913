/** Shared by the ordering page and staff console suites: a server process, the two screen sizes, filling the form. */
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { client, freePort, launchBrowser, openPage, PHONE, screenshot } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

export const ADMIN_TOKEN = 'test-admin';
/** The sizes issue 8 names: a phone (the one every browser test uses) and a laptop. */
export { PHONE };
export const DESKTOP = { width: 1280, height: 800 } as const;

/** A server process on a free port (PUBLIC_URL pointing at it) and a client for staff calls. */
export async function startServer(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess({
    PORT: String(port),
    DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`,
    ADMIN_TOKEN,
    PUBLIC_URL: base,
    ...extraEnv,
  });
  expect(server.url).toBe(base);
  return { base, server, api: client(base, ADMIN_TOKEN) };
}

/**
 * A server process (`startServer`) and its ordering page open in Chromium, a phone's unless `options` say otherwise,
 * once its choices are drawn.
 */
export async function openOrderingPage(options: BrowserContextOptions = { viewport: PHONE }) {
  const served = await startServer();
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, options);
  await page.goto(served.base);
  await page.locator('#sizes input').first().waitFor({ state: 'attached' });
  return { ...served, browser, page, pageErrors };
}

/** Fills the form on an open ordering page and goes on to the confirmation. */
export async function fillOrder(page: Page, order: { size: string; font: string; thread: string; stitchText: string; name: string; email: string }) {
  for (const kind of ['size', 'font', 'thread'] as const) await page.locator(`input[name="${kind}"][value="${order[kind]}"]`).check();
  await page.getByLabel('Text to stitch').fill(order.stitchText);
  await page.getByLabel('First and last name').fill(order.name);
  await page.getByLabel('Email').fill(order.email);
  await page.getByRole('button', { name: 'Review my order' }).click();
  await page.locator('#confirm').waitFor({ state: 'visible' });
}

/**
 * Visible text whose contrast with the background behind it is below WCAG AA: 4.5:1, or 3:1 for large text
 * (24px, or 18.66px bold). Disabled controls and visually hidden text are exempt, as WCAG says.
 */
export function lowContrastTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channels = (css: string) => (css.match(/[\d.]+/gu) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const linear = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    const backgroundOf = (element: Element | null): number[] => {
      for (let e = element; e; e = e.parentElement) {
        const c = channels(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || c[3]! > 0.5) return c;
      }
      return [255, 255, 255];
    };
    const failures: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      const text = node.textContent!.trim();
      if (!text || !element.checkVisibility() || element.closest('.sr-only, :disabled')) continue;
      const style = getComputedStyle(element);
      const [light, dark] = [luminance(channels(style.color)), luminance(backgroundOf(element))].sort((a, b) => b - a);
      const ratio = (light! + 0.05) / (dark! + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
      if (ratio < (large ? 3 : 4.5)) failures.push(`“${text.slice(0, 40)}” ${ratio.toFixed(2)}:1`);
    }
    return failures;
  });
}

/** Visible form controls without a label (a <label>, aria-label or aria-labelledby). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.locator('input, textarea, select').evaluateAll((controls) =>
    controls
      .filter((c) => c.checkVisibility() && !(c as HTMLInputElement).labels?.length && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'))
      .map((c) => c.id || (c as HTMLInputElement).name || c.outerHTML.slice(0, 60)),
  );
}

/**
 * When the page scrolls sideways (wider than the viewport), the elements that reach past its right edge; and any
 * box inside it that scrolls sideways (a table in an overflow-x scroller hides its first or last columns).
 */
export function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className ? `.${String(e.className).replace(/ /gu, '.')}` : ''}`;
    const scrollers = [...document.body.querySelectorAll('*')]
      .filter((e) => e.checkVisibility() && /auto|scroll/u.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${name(e)} scrolls sideways (${e.scrollWidth}px in ${e.clientWidth}px)`);
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return scrollers;
    const wide = [...document.body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > width + 1);
    return [`page is ${document.documentElement.scrollWidth}px wide`, ...wide.slice(0, 8).map(name), ...scrollers];
  });
}

/**
 * Drawn lines that begin with a "·" separator, as `block: "its text"`: a text of parts ("A · D · A", "id · last
 * attempt … · next …") wrapped on a phone before its dot, which then read as the first thing of the next line (the
 * spelled stitch text: one more character to stitch). A dot begins a line when the visible character before it, in
 * the same block, is on an earlier line. `within`: the part of the page looked at, the whole of it by default.
 */
export function linesBeginningWithDot(page: Page, within = 'body'): Promise<string[]> {
  return page.locator(within).evaluate((root) => {
    const blockOf = (node: Node) => {
      let element = node.parentElement!;
      while (element.parentElement && getComputedStyle(element).display.startsWith('inline')) element = element.parentElement;
      return element;
    };
    const found: string[] = [];
    let previous: { block: Element; bottom: number } | undefined;
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const text = node.textContent!;
      if (!text.trim() || !node.parentElement!.checkVisibility()) continue;
      const block = blockOf(node);
      for (let i = 0; i < text.length; i++) {
        if (!text[i]!.trim()) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.height === 0) continue;
        if (text[i] === '·' && previous?.block === block && box.top >= previous.bottom - 2) {
          found.push(`${block.tagName.toLowerCase()}${block.id ? `#${block.id}` : ''}${block.className ? `.${String(block.className).replace(/ /gu, '.')}` : ''}: "${block.textContent!.trim().slice(0, 80)}"`);
        }
        previous = { block, bottom: box.bottom };
      }
    }
    return found;
  });
}

/**
 * Words broken across lines, as `element: "word"`: a word of up to 26 characters (between spaces, hyphens and
 * slashes, so an id or a URL may still break at those) drawn on two lines, as `overflow-wrap: anywhere` breaks a site
 * id or a notification's path in a column too narrow for it ("site_iVv3IO41xc0ehYI" above "a"). A longer word (a
 * 40-character token) may break: nothing narrower could show it. A number and its unit count as one word ("500 in
 * 6" above "ms" on the portal). Text hidden for all but screen readers (sr-only, one pixel wide) is not drawn, and not
 * looked at.
 */
export function wordsBrokenAcrossLines(page: Page, within = 'body'): Promise<string[]> {
  return page.locator(within).evaluate((root) => {
    const found: string[] = [];
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const text = node.textContent!;
      if (!text.trim() || !node.parentElement!.checkVisibility()) continue;
      let onePixel = false;
      for (let element: Element | null = node.parentElement; element && !onePixel; element = element.parentElement) onePixel = element.getBoundingClientRect().width <= 1;
      if (onePixel) continue;
      for (const word of text.matchAll(/\d[\d,.]* (?:ms|s|min|h|KB|MB)\b|[^\s\-/]+/gu)) {
        if (word[0].length < 2 || word[0].length > 26) continue;
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top / 4)));
        if (tops.size > 1) found.push(`${node.parentElement!.tagName.toLowerCase()}${node.parentElement!.id ? `#${node.parentElement!.id}` : ''}: "${word[0]}"`);
      }
    }
    return found;
  });
}

/**
 * Every readability check at once, each failure named by `label`: every control labelled, every text readable,
 * nothing wider than the screen, no line begun by a "·", no short word broken across lines.
 */
export async function expectReadable(page: Page, label: string): Promise<void> {
  expect(await unlabelledControls(page), label).toEqual([]);
  expect(await lowContrastTexts(page), label).toEqual([]);
  expect(await widerThanViewport(page), label).toEqual([]);
  expect(await linesBeginningWithDot(page), label).toEqual([]);
  expect(await wordsBrokenAcrossLines(page), label).toEqual([]);
}

/**
 * At each of `sizes`, a screenshot (test-output/screenshots/<shot>-<size>.png) and `expectReadable`; leaves the
 * viewport as it was. `lookAt`, the portal's `lookAtPortal` and the displays' `screenshotEverySize` differ only in
 * the sizes.
 */
export async function lookAtSizes(page: Page, shot: string, sizes: readonly { name: string; viewport: { width: number; height: number } }[]) {
  const before = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize(size.viewport);
    await screenshot(page, `${shot}-${size.name}`);
    await expectReadable(page, `${shot} at ${size.name} size`);
  }
  if (before) await page.setViewportSize(before);
}

/** Looks at a page the way issue 8 asks (`lookAtSizes`), on a phone and a desktop: `<name>-phone.png`, `-desktop.png`. */
export function lookAt(page: Page, name: string): Promise<void> {
  return lookAtSizes(page, name, [{ name: 'phone', viewport: PHONE }, { name: 'desktop', viewport: DESKTOP }]);
}

/** Signs `page` in on the staff console of `base` with `token` (the suites' admin token unless given). */
export async function signInToStaff(page: Page, base: string, token = ADMIN_TOKEN): Promise<void> {
  await page.goto(`${base}/staff`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Fills the pay page's card form: `number`, and an expiry (12/30 unless given), CVC 123 and Ada Lovelace's name. */
export async function fillCard(page: Page, number: string, expiry = '12/30'): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(expiry);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}
