/**
 * The merchant portal at /portal (issue 19) in a real Chromium against a real server process: a merchant created by
 * POST /merchants signs in with its site id and API key (a wrong key is refused in words), adds an endpoint at a real
 * receiver, copies the secret shown once, sends a test event and sees it delivered live; the receiver verifies the
 * signature with the public standardwebhooks library and the copied secret; after a rotation a delivery verifies with
 * both secrets; a redelivery reaches the receiver again with the same webhook-id.
 */
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { startReceiver, type ReceivedRequest } from '../support/receiver.ts';
import { LAPTOP, lookAtPortal, signIn, startWithMerchant } from './portal-support.ts';

const verify = (secret: string, request: ReceivedRequest) => new Webhook(secret).verify(request.raw, request.headers as Record<string, string>);
/** A time as a datetime-local field takes it, in this machine's zone (the browser's too). */
const localMinute = (ms: number) => {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};
const delivery = (page: Page, webhookId: string) => page.locator(`#delivery-list li[data-webhook-id="${webhookId}"]`);

/** Clicks Copy and reads the secret back from the clipboard, as a merchant pasting it would. */
async function copySecret(page: Page): Promise<string> {
  await page.locator('#secret-box').waitFor({ state: 'visible', timeout: 5_000 });
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => page.locator('#secret-note').textContent()).toBe('Copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
  expect(await page.locator('#secret').inputValue()).toBe(copied);
  return copied;
}

describe.skipIf(!hasChromium)(`the merchant portal in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('signs a merchant in, adds an endpoint, delivers a test event live, rotates the secret and redelivers', { timeout: 120_000 }, async () => {
    const { base, merchant, asMerchant } = await startWithMerchant();
    const receiver = await startReceiver();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

    // The page's own headers: a strict policy, never framed, never cached (it holds an API key once signed in).
    const served = await page.goto(`${base}/portal`);
    const headers = served!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['cache-control']).toBe('no-store');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-id');
    await lookAtPortal(page, 'sign-in');

    // A wrong key is refused in words, and nothing is kept.
    await signIn(page, merchant.id, 'not-the-key');
    await expect.poll(() => page.locator('#sign-in-error').textContent(), { timeout: 5_000 }).toBe('That site id and API key do not match. Check both and try again.');
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([0, 0]);
    await lookAtPortal(page, 'sign-in-refused');

    // The right pair, by keyboard (Enter in the field): kept in this tab only, never in the address.
    await page.getByLabel('API key').fill(merchant.apiKey);
    await page.getByLabel('API key').press('Enter');
    await expect.poll(() => page.locator('#endpoints-state').textContent(), { timeout: 5_000 }).toMatch(/^No endpoints yet/u);
    expect(await page.evaluate(() => [sessionStorage.getItem('sleeve.portalSite'), localStorage.length])).toEqual([JSON.stringify({ siteId: merchant.id, apiKey: merchant.apiKey }), 0]);

    expect(page.url()).toBe(`${base}/portal`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('endpoints-title');

    // Add an endpoint at the receiver, for two event types; the secret is shown once, copied from the page. The
    // dialog opens and closes by keyboard, and gives focus back to the button that opened it.
    await page.getByRole('button', { name: 'Add endpoint' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('endpoint-url');
    await page.keyboard.press('Escape');
    expect(await page.locator('#endpoint-dialog').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('add-endpoint');
    await page.keyboard.press('Enter');
    await page.getByLabel('URL').fill('not a url');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.locator('#endpoint-error').textContent()).toMatch(/full address/u);
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Main receiver');
    await page.getByLabel('Token updated').check();
    await page.getByLabel('Account update').press('Space');
    await page.getByRole('button', { name: 'Save' }).click();
    const secret = await copySecret(page);
    expect(page.url()).not.toContain(secret);
    const [created] = (await asMerchant('GET', '')).body.data;
    expect(created).toMatchObject({ url: receiver.url, description: 'Main receiver', eventTypes: ['token-updated', 'accountupdatenotification'], enabled: true });
    expect(JSON.stringify(created)).not.toContain('whsec_');
    expect(page.url()).toBe(`${base}/portal#/endpoints/${encodeURIComponent(created.id)}`);
    expect(await page.locator('#endpoint-health').textContent()).toBe('Enabled and delivering.');
    await lookAtPortal(page, 'new-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.locator('#secret-box').isHidden()).toBe(true);
    expect(await page.locator('#secret').inputValue()).toBe('');

    // A test event: received and verified with the copied secret, and shown delivered without a reload.
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [first] = await receiver.waitFor(1);
    expect(first!.path).toBe('/webhook-test');
    expect(verify(secret, first!)).toMatchObject({ type: 'WEBHOOK_TEST', endpointId: created.id, siteId: merchant.id });
    const firstId = String(first!.headers['webhook-id']);
    await expect.poll(() => delivery(page, firstId).getAttribute('data-status'), { timeout: 6_000 }).toBe('DELIVERED');
    await delivery(page, firstId).locator('summary').click();
    expect(await delivery(page, firstId).locator('tr.attempt td').nth(2).textContent()).toMatch(/^200 in \d+ ms$/u);
    await lookAtPortal(page, 'delivered');
    await page.emulateMedia({ colorScheme: 'dark' });
    await lookAtPortal(page, 'delivered-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A failing answer: its status, duration and the start of the answer; the endpoint is failing until the retry
    // (NOTIFY_RETRY_SCHEDULE's 3 s) delivers it.
    receiver.failNext(1, { status: 500, body: 'not now' });
    await page.getByRole('button', { name: 'Send test event' }).click();
    const failedId = String((await receiver.waitFor(2))[1]!.headers['webhook-id']);
    await expect.poll(() => delivery(page, failedId).locator('.meta').textContent(), { timeout: 6_000 }).toMatch(/ · last attempt 500 in \d+ ms · next /u);
    expect(await delivery(page, failedId).getAttribute('data-status')).toBe('PENDING');
    await expect.poll(() => page.locator('#endpoint-health').textContent(), { timeout: 6_000 }).toMatch(/^Enabled, but every attempt has failed since /u);
    await delivery(page, failedId).locator('summary').click();
    expect(await delivery(page, failedId).locator('tr.attempt td').nth(3).textContent()).toBe('not now');
    await lookAtPortal(page, 'failing');
    await expect.poll(() => delivery(page, failedId).getAttribute('data-status'), { timeout: 12_000 }).toBe('DELIVERED');
    expect(await delivery(page, failedId).locator('tr.attempt').count()).toBe(2);
    await expect.poll(() => page.locator('#endpoint-health').textContent(), { timeout: 6_000 }).toBe('Enabled and delivering.');

    // Rotate: a new secret, shown once; the next delivery carries both signatures, each verifying.
    // Its words hold after a second rotation within the day too, when three secrets sign ("both" did not).
    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    expect(await page.locator('#confirm-text').textContent()).toBe('A new secret is made and shown once. The secrets that sign now keep signing for 24 hours beside the new one, so you can deploy it without missing a notification.');
    await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
    const rotated = await copySecret(page);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const second = (await receiver.waitFor(4))[3];
    expect(String(second!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated, second!)).toMatchObject({ type: 'WEBHOOK_TEST' });
    expect(verify(secret, second!)).toMatchObject({ type: 'WEBHOOK_TEST' });
    const secondId = String(second!.headers['webhook-id']);
    await expect.poll(() => delivery(page, secondId).getAttribute('data-status'), { timeout: 6_000 }).toBe('DELIVERED');

    // Redeliver the first: the receiver gets it again, same webhook-id, and the page shows its second attempt live.
    await delivery(page, firstId).getByRole('button', { name: /^Redeliver/u }).click();
    const again = (await receiver.waitFor(5))[4];
    expect(again!.headers['webhook-id']).toBe(firstId);
    expect(verify(rotated, again!)).toMatchObject({ type: 'WEBHOOK_TEST' });
    await expect.poll(() => delivery(page, firstId).locator('tr.attempt').count(), { timeout: 6_000 }).toBe(2);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Redeliver/u);

    // Two failures use up the schedule: FAILED. Recover, from the form, sends it again with the same webhook-id.
    receiver.failNext(2, { status: 503, body: 'down for maintenance' });
    await page.getByRole('button', { name: 'Send test event' }).click();
    const lostId = String((await receiver.waitFor(6))[5]!.headers['webhook-id']);
    await expect.poll(() => delivery(page, lostId).getAttribute('data-status'), { timeout: 10_000 }).toBe('FAILED');
    await page.getByLabel('Show').selectOption('FAILED');
    await expect.poll(() => page.locator('#delivery-list li').evaluateAll((items) => items.map((li) => li.getAttribute('data-webhook-id')))).toEqual([lostId]);
    await lookAtPortal(page, 'failed');
    await page.getByLabel('Send again every failed delivery since').fill(localMinute(Date.now() - 3_600_000));
    await page.getByRole('button', { name: 'Recover' }).click();
    await expect.poll(() => page.locator('#recover-result').textContent()).toMatch(/^1 failed delivery since .+ is being sent again\.$/u);
    expect((await receiver.waitFor(8))[7]!.headers['webhook-id']).toBe(lostId);
    await page.getByLabel('Show').selectOption('');
    await expect.poll(() => delivery(page, lostId).getAttribute('data-status'), { timeout: 6_000 }).toBe('DELIVERED');

    // Edit: every event type (none ticked), disabled; the health says so.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Token updated').uncheck();
    await page.getByLabel('Account update').uncheck();
    await page.getByLabel('Enabled: send notifications to it').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#endpoint-health').textContent(), { timeout: 5_000 }).toMatch(/^Disabled by the site\. Nothing is sent to it/u);
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    expect((await asMerchant('GET', `/${created.id}`)).body).toMatchObject({ eventTypes: [], enabled: false });
    await lookAtPortal(page, 'disabled');
    expect(pageErrors).toEqual([]);

    // Another tab is another session: it must sign in again.
    const other = await openPage(browser, { viewport: LAPTOP });
    await other.page.goto(`${base}/portal`);
    expect(await other.page.locator('#sign-in').isVisible()).toBe(true);
  });
});
