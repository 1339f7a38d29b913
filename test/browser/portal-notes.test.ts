/**
 * What the portal says where it said nothing or the wrong thing (a merchant's review of issue 19's portal), against a
 * real server process in Chromium: a filter that leaves the list empty says so, not "No deliveries yet"; a
 * redelivery's "queued" note gives way to how the new attempt went (it stayed for good); an endpoint id in the
 * address that names none of the site's endpoints is said, not a blank pane.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { startReceiver } from '../support/receiver.ts';
import { LAPTOP, signIn, startWithMerchant } from './portal-support.ts';

describe.skipIf(!hasChromium)(`the merchant portal's notes in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('says an empty filter, a redelivery through to its answer, and an unknown endpoint id', { timeout: 120_000 }, async () => {
    const { base, merchant, asMerchant } = await startWithMerchant();
    const receiver = await startReceiver();
    const created = await asMerchant('POST', '', { url: receiver.url, description: 'Notes receiver' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await asMerchant('POST', `/${id}/test`)).status).toBe(202);
    await expect.poll(async () => (await asMerchant('GET', `/${id}/deliveries`)).body.data[0]?.status, { timeout: 10_000 }).toBe('DELIVERED');

    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP });
    await page.goto(`${base}/portal`);
    await signIn(page, merchant.id, merchant.apiKey);
    await page.getByRole('link', { name: 'Notes receiver' }).click();
    const state = page.locator('#deliveries-state');
    await expect.poll(() => page.locator('#delivery-list li').count(), { timeout: 5_000 }).toBe(1);

    // Failed: none, said as such.
    await page.getByLabel('Show').selectOption('FAILED');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toBe('No failed deliveries. Choose All to see every delivery.');
    await page.getByLabel('Show').selectOption('');
    await expect.poll(() => page.locator('#delivery-list li').count(), { timeout: 5_000 }).toBe(1);

    // Redeliver: queued, then how it went once the row shows the new attempt.
    const webhookId = (await page.locator('#delivery-list li').getAttribute('data-webhook-id'))!;
    await page.getByRole('button', { name: `Redeliver ${webhookId}` }).click();
    await expect.poll(() => state.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^${webhookId} was sent again: 200 in \\d+ ms\\.$`, 'u'));

    // An id that is none of this site's endpoints.
    await page.evaluate(() => { location.hash = '#/endpoints/ep_nonexistent'; });
    await expect.poll(() => page.locator('#endpoints-state').textContent(), { timeout: 5_000 }).toBe('No endpoint of this site has the id ep_nonexistent. Choose one from the list.');
    expect(await page.locator('#endpoint').isHidden()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
