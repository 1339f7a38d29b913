/**
 * What the merchant portal offers and says around refusals, against a real server process in a real Chromium (an
 * outside review of the portal): a disabled endpoint offered Redeliver and Recover, and a refusal read raw API text
 * twice ("…(PATCH {"enabled": true}). enabled: the endpoint is disabled.") in a status line, unannounced; the
 * Add-endpoint dialog printed the private-address refusal twice; a site-disabled endpoint read "Disabled: Disabled".
 * An accessibility review (F5): a refusal of Save pressed by keyboard dropped focus to the page's body, outside the
 * modal dialog, and the URL field was never marked invalid nor described by the error.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
import { LAPTOP, lookAtPortal, signIn, startWithMerchant } from './portal-support.ts';

const DISABLED_REFUSAL = 'The endpoint is disabled: enable it (Edit, then Enabled) to send again.';

/** A merchant's endpoint "Receiver A" with one delivered test event, then disabled by the site; open on /portal. */
async function disabledEndpointOpen() {
  const started = await startWithMerchant();
  const receiver = await startReceiver();
  const { asMerchant } = started;
  const id = (await asMerchant('POST', '', { url: receiver.url, description: 'Receiver A' })).body.id as string;
  expect((await asMerchant('POST', `/${id}/test`)).status).toBe(202);
  await eventually(async () => (await asMerchant('GET', `/${id}/deliveries`)).body.data[0]?.status === 'DELIVERED', 6_000);
  expect((await asMerchant('PATCH', `/${id}`, { enabled: false })).status).toBe(200);
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
  await page.goto(`${started.base}/portal`);
  await signIn(page, started.merchant.id, started.merchant.apiKey);
  await page.getByRole('link', { name: 'Receiver A' }).click();
  await page.getByRole('button', { name: /^Redeliver/u }).waitFor({ timeout: 5_000 });
  return { page, pageErrors };
}

/** A merchant signed in to the portal, its Add-endpoint dialog open. */
async function addEndpointDialog() {
  const { base, merchant } = await startWithMerchant();
  const browser = await launchBrowser();
  const opened = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
  await opened.page.goto(`${base}/portal`);
  await signIn(opened.page, merchant.id, merchant.apiKey);
  await opened.page.getByRole('button', { name: 'Add endpoint' }).click();
  return opened;
}

describe.skipIf(!hasChromium)(`the merchant portal's refusals in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('offers no Redeliver or Recover on a disabled endpoint and shows why, and says "disabled" once', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await disabledEndpointOpen();
    const redeliver = page.getByRole('button', { name: /^Redeliver/u });
    expect.soft(await redeliver.isDisabled()).toBe(true);
    expect.soft(await page.getByRole('button', { name: 'Recover' }).isDisabled()).toBe(true);
    // The reason is shown beside both, and read out with the Redeliver buttons.
    const note = 'Enable the endpoint to send again: nothing is sent to a disabled endpoint.';
    expect.soft(await page.locator('#send-again-note:visible, #recover-note:visible').allTextContents()).toEqual([note, note]);
    expect.soft(await redeliver.getAttribute('aria-describedby')).toBe('send-again-note');
    expect.soft(await page.locator('#endpoint-health').textContent()).toMatch(/^Disabled by the site\. Nothing is sent to it/u);
    await lookAtPortal(page, 'disabled-endpoint');
    expect(pageErrors).toEqual([]);
  });

  it('words a refusal once, in its own words, as an alert', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await disabledEndpointOpen();
    // A view a moment old (the endpoint disabled since the last read): the buttons are offered and the server refuses.
    await page.route('**/v1/webhooks/endpoints', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Array<Record<string, unknown>> };
      await route.fulfill({ response, json: { ...body, data: body.data.map((e) => ({ ...e, enabled: true, disabledReason: null })) } });
    });
    const redeliver = page.getByRole('button', { name: /^Redeliver/u });
    await expect.poll(() => redeliver.isEnabled(), { timeout: 5_000 }).toBe(true);
    await redeliver.click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The endpoint is disabled' });
    await expect.poll(() => refusal.allTextContents(), { timeout: 5_000 }).toEqual([DISABLED_REFUSAL]);
    // Recover is refused alike (422 since the server refuses a disabled endpoint's recovery too).
    await page.getByLabel('Send again every failed delivery since').fill('2026-01-01T00:00');
    await page.getByRole('button', { name: 'Recover' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The endpoint is disabled' }).count(), { timeout: 5_000 }).toBe(2);
    expect(await page.locator('#recover-error').textContent()).toBe(DISABLED_REFUSAL);
    expect(pageErrors).toEqual([]);
  });

  it('refuses a private address once in the Add-endpoint dialog, by the field\'s label', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await addEndpointDialog();
    await page.getByLabel('URL').fill('http://10.1.2.3/hook');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#endpoint-error').textContent(), { timeout: 5_000 }).toMatch(/10\.1\.2\.3/u);
    const said = (await page.locator('#endpoint-error').textContent())!;
    expect(said.split('10.1.2.3'), said).toHaveLength(2);
    expect(said).toMatch(/^URL must be on the public internet: /u);
    expect(pageErrors).toEqual([]);
  });

  it('keeps focus in the Add-endpoint dialog on the URL refused, marked and described by the refusal', { timeout: 60_000 }, async () => {
    const { page, pageErrors } = await addEndpointDialog();
    const url = page.getByLabel('URL');
    const focused = () => page.evaluate(() => ({ id: document.activeElement?.id, inDialog: !!document.activeElement?.closest('dialog[open]') }));
    const marks = () => url.evaluate((field) => [field.getAttribute('aria-invalid'), field.getAttribute('aria-describedby')]);
    expect(await marks()).toEqual([null, 'endpoint-url-help']);

    // Save pressed by keyboard, refused by the server (Save is disabled while it asks).
    await url.fill('http://10.1.2.3/hook');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#endpoint-error').textContent(), { timeout: 5_000 }).toMatch(/^URL must be on the public internet: /u);
    await expect.poll(focused, { timeout: 2_000 }).toEqual({ id: 'endpoint-url', inDialog: true });
    expect(await marks()).toEqual(['true', 'endpoint-url-help endpoint-error']);
    // Changed: no longer at fault until Save says otherwise.
    await url.fill('http://10.1.2.4/hook');
    expect(await marks()).toEqual([null, 'endpoint-url-help']);

    // Refused on the page (no address at all): the same.
    await url.fill('');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#endpoint-error').textContent()).toMatch(/^Give the full address of your receiver/u);
    expect(await focused()).toEqual({ id: 'endpoint-url', inDialog: true });
    expect(await marks()).toEqual(['true', 'endpoint-url-help endpoint-error']);
    expect(pageErrors).toEqual([]);
  });
});
