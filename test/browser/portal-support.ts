/**
 * For the merchant portal's browser suite: a server process with a known bootstrap site, a merchant site created by
 * `POST /merchants`, the portal's two screen sizes, and a look at a page at both (screenshot, labels, contrast,
 * nothing wider than the screen).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PHONE } from '../support/browser.ts';
import { lookAtSizes, startServer } from './ordering-support.ts';

/** The sizes issue 19 names: a phone (PHONE, the one every browser test uses) and a laptop. */
export const LAPTOP = { width: 1366, height: 768 } as const;

const BOOTSTRAP = { id: 'site_portal_boot', apiKey: 'key_portal_boot' };

const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;

/** The endpoint API as a site itself calls it with its basic auth (to set up, and to check what the page did). */
function endpointApi(base: string, site: { id: string; apiKey: string }) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/v1/webhooks/endpoints${path}`, {
      method,
      headers: { authorization: basic(site.id, site.apiKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * A server process and a merchant of its own (a site with its own id and API key), created as a platform would. The
 * bootstrap site is there too: sleeve orders, and so their claims, belong to it.
 */
export async function startWithMerchant() {
  // Two attempts 3 s apart: a retry and a FAILED delivery both happen within the test.
  const started = await startServer({ VENDOR_SITE_ID: BOOTSTRAP.id, VENDOR_API_KEY: BOOTSTRAP.apiKey, NOTIFY_RETRY_SCHEDULE: '0,3s' });
  const response = await fetch(`${started.base}/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(BOOTSTRAP.id, BOOTSTRAP.apiKey), 'x-vendor-siteid': BOOTSTRAP.id, 'api-version': '10.3' },
    body: JSON.stringify({ defaultMerchantCategoryCode: '5411', merchantId: 'portal-1', name: 'Portal Shop' }),
  });
  const merchant = (await response.json()) as { id: string; apiKey: string };
  expect(response.status, JSON.stringify(merchant)).toBe(200);
  return {
    ...started,
    merchant,
    asMerchant: endpointApi(started.base, merchant),
    bootstrap: BOOTSTRAP,
    asBootstrap: endpointApi(started.base, BOOTSTRAP),
    siteAuthorization: basic(BOOTSTRAP.id, BOOTSTRAP.apiKey),
  };
}

/** `lookAtSizes` on the sizes issue 19 names: `portal-<name>-phone.png` and `-laptop.png`. */
export function lookAtPortal(page: Page, name: string): Promise<void> {
  return lookAtSizes(page, `portal-${name}`, [{ name: 'phone', viewport: PHONE }, { name: 'laptop', viewport: LAPTOP }]);
}

/** Signs in on an open /portal. */
export async function signIn(page: Page, siteId: string, apiKey: string) {
  await page.getByLabel('Site id').fill(siteId);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
