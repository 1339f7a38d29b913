/**
 * Headless Chromium for the browser suites: the system browser at /usr/bin/chromium (never a downloaded one),
 * a free fixed port for a real server process, screenshots into test-output/screenshots/, and small REST and
 * GraphQL calls against that process. Suites skip with `describe.skipIf(!hasChromium)` when it is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterThisTest } from './gateway.ts';
export { freePort } from './ports.ts';
import { expectDocumentedAnswer } from './openapi-answers.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
/** Appended to a suite's name, so a skipped run says why. */
export const CHROMIUM_NOTE = hasChromium ? `(Chromium at ${CHROMIUM_PATH})` : `(skipped: no Chromium at ${CHROMIUM_PATH})`;

export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-output/screenshots');

/**
 * The system Chromium, one per test worker (playwright-core never downloads a browser). A launch, a page and a close
 * took 1.9–2.1 s on a 2-core host against 0.6–0.75 s for a page in a kept browser, and the browser suites ask for one
 * about a hundred times a run, so the worker keeps the process and each test gets what isolates it from the others:
 * its own contexts (cookies, storage, cache, permissions), all closed after the test. A browser that crashed or was
 * closed is launched again for the next test. Playwright kills the process when the worker exits.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!(await workerBrowser?.then((kept) => kept.isConnected(), () => false))) workerBrowser = launchChromium();
  const browser = await workerBrowser!;
  // A worker runs one test at a time: every context open now is this test's.
  afterThisTest(async () => void (await Promise.all(browser.contexts().map((context) => context.close()))));
  return browser;
}

let workerBrowser: Promise<Browser> | undefined;

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/** A page in a fresh context; uncaught page errors are collected so the test can assert there were none. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, ...options });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

export const DESKTOP = { width: 1920, height: 1080 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Writes `test-output/screenshots/<name>.png` (the folder is git-ignored). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}


/** REST and GraphQL calls against a running server. */
export function client(baseUrl: string, adminToken: string) {
  async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer = text ? JSON.parse(text) : null;
    // As gateway.ts's `rest`: every REST answer must be one /openapi.json describes (docs/agents.md#openapi-document).
    expectDocumentedAnswer(method, path, response.status, response.headers.get('content-type'), answer ?? '');
    return { status: response.status, body: answer };
  }

  async function staff(query: string): Promise<any> {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ query }),
    });
    const json = (await response.json()) as { data?: any; errors?: unknown };
    if (json.errors) throw new Error(`GraphQL errors: ${JSON.stringify(json.errors)}`);
    return json.data;
  }

  return {
    rest,
    staff,
    /** Creates an order; returns the 201 body (orderNumber, payToken, payUrl, …). */
    async createOrder(order: Record<string, string>): Promise<any> {
      const created = await rest('POST', '/api/orders', order);
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body;
    },
    async pay(orderNumber: string, payToken: string): Promise<void> {
      const paid = await rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
      if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
    },
    async markReady(orderNumber: string): Promise<string> {
      const data = await staff(`mutation { advanceOrder(orderNumber: "${orderNumber}", status: READY) { status } }`);
      return data.advanceOrder.status;
    },
  };
}

/**
 * Stops the page's installed clock (`page.clock.install`) a quarter of a second ahead of where it is. The clock runs
 * in real time until then, so a stall of the shared cores between reading it and pausing it can carry it past that
 * point ("Cannot fast-forward to the past", seen once in a full suite run): read it again and retry.
 */
export async function pauseClockSoon(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const at = (await page.evaluate(() => Date.now())) + 250;
    try {
      await page.clock.pauseAt(at);
      return;
    } catch (error) {
      if (attempt === 5 || !String(error).includes('to the past')) throw error;
    }
  }
}
