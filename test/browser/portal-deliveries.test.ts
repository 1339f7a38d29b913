/**
 * The portal's deliveries list and endpoint form against a real server process in a real Chromium (an outside
 * review of issue 19's portal): older deliveries are reached with a button that follows the API's nextCursor (the
 * page showed the first page only); the status filter offers Dropped, a status deliveries really have
 * (docs/notifications.md#decided-at-send-time; it was not offered); the description takes as many characters as the
 * API does (DESCRIPTION_MAX; the field stopped at 200).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX } from '../../src/notifications/endpoint-rules.ts';
import { PAGE_DEFAULT } from '../../src/notifications/endpoint-service.ts';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
import { LAPTOP, lookAtPortal, signIn, startWithMerchant } from './portal-support.ts';

const shownIds = (page: Page) => page.locator('#delivery-list li').evaluateAll((items) => items.map((li) => li.getAttribute('data-webhook-id')));
const olderButton = (page: Page) => page.getByRole('button', { name: 'Load older deliveries' });

/** Opens /portal signed in as the site, on the endpoint the list names `name`. */
async function openEndpoint(base: string, site: { id: string; apiKey: string }, name: string) {
  const browser = await launchBrowser();
  const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light' });
  await page.goto(`${base}/portal`);
  await signIn(page, site.id, site.apiKey);
  await page.getByRole('link', { name }).click();
  return { page, pageErrors };
}

/** A staff GraphQL call with variables, as the staff console makes it. */
async function staff(base: string, query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer test-admin' },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as { data?: any; errors?: unknown };
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data;
}

describe.skipIf(!hasChromium)(`the merchant portal's deliveries and endpoint form in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('shows older deliveries page by page with a Load older deliveries button, gone at the last page', { timeout: 120_000 }, async () => {
    const { base, merchant, asMerchant } = await startWithMerchant();
    const receiver = await startReceiver();
    const created = await asMerchant('POST', '', { url: receiver.url, description: 'Busy receiver' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // Two more than the API's first page, so the older ones are on a second page.
    for (let i = 0; i < PAGE_DEFAULT + 2; i += 1) expect((await asMerchant('POST', `/${id}/test`)).status).toBe(202);
    const all = (await asMerchant('GET', `/${id}/deliveries?limit=200`)).body.data.map((d: { webhookId: string }) => d.webhookId);
    expect(all).toHaveLength(PAGE_DEFAULT + 2);

    const { page, pageErrors } = await openEndpoint(base, merchant, 'Busy receiver');
    await expect.poll(() => shownIds(page), { timeout: 5_000 }).toEqual(all.slice(0, PAGE_DEFAULT));
    await expect.poll(() => olderButton(page).isVisible(), { timeout: 5_000 }).toBe(true);
    await lookAtPortal(page, 'older-deliveries');

    // The next page, after the first: appended below it, newest first still; no page after it, so no button.
    await olderButton(page).click();
    await expect.poll(() => shownIds(page), { timeout: 5_000 }).toEqual(all);
    expect(await olderButton(page).count()).toBe(0);
    expect(await page.locator('#deliveries-state').textContent()).toBe('2 older deliveries shown.');

    // The poll keeps both pages: a new delivery appears on top and the older ones stay.
    const newest = (await asMerchant('POST', `/${id}/test`)).body.webhookId as string;
    await expect.poll(() => shownIds(page), { timeout: 6_000 }).toEqual([newest, ...all]);
    expect(pageErrors).toEqual([]);
  });

  it('filters Dropped: only the deliveries decided at send time to have nothing left to say', { timeout: 120_000 }, async () => {
    const { base, bootstrap, asBootstrap, siteAuthorization, api } = await startWithMerchant();
    const receiver = await startReceiver();
    // Disabled while the evidence request is queued, so it is still waiting when the evidence is given in full.
    const created = await asBootstrap('POST', '', { url: receiver.url, description: 'Claims receiver', enabled: false });
    const id = created.body.id as string;
    const order = await api.createOrder({ ...VALID_ORDER });
    const dueDate = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const { openClaim } = await staff(base, 'mutation ($input: OpenClaimInput!) { openClaim(input: $input) { claimId } }', {
      input: { orderId: order.orderNumber, claimType: 'CHARGEBACK', reasonCode: '13.1', reasonCategory: 'SERVICE', amount: 45.5, currency: 'USD', processorName: 'sandbox', processorCaseNumber: 'case-1', dueDate, requestedEvidenceTypes: ['PROOF_OF_DELIVERY'] },
    });
    const evidence = await fetch(`${base}/v2/claims/${openClaim.claimId}/evidence/data-points`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: siteAuthorization },
      body: JSON.stringify({ proofsOfDelivery: [{ carrier: 'UPS', trackingNumber: '1Z999' }] }),
    });
    expect(evidence.status, await evidence.text()).toBe(200);
    expect((await asBootstrap('PATCH', `/${id}`, { enabled: true })).status).toBe(200);
    const dropped = await eventually(async () => (await asBootstrap('GET', `/${id}/deliveries?status=DROPPED`)).body.data[0]?.webhookId as string | undefined, 10_000);
    const tested = (await asBootstrap('POST', `/${id}/test`)).body.webhookId as string;

    const { page, pageErrors } = await openEndpoint(base, bootstrap, 'Claims receiver');
    await expect.poll(() => shownIds(page), { timeout: 5_000 }).toEqual([tested, dropped]);
    await page.getByLabel('Show').selectOption({ label: 'Dropped' }, { timeout: 5_000 });
    await expect.poll(() => shownIds(page), { timeout: 5_000 }).toEqual([dropped]);
    expect(await page.locator('#delivery-list li').getAttribute('data-status')).toBe('DROPPED');
    expect(pageErrors).toEqual([]);
  });

  it(`saves a description of ${DESCRIPTION_MAX} characters, the API's own limit, and stops typing there`, { timeout: 120_000 }, async () => {
    const { base, merchant, asMerchant } = await startWithMerchant();
    const receiver = await startReceiver();
    expect((await asMerchant('POST', '', { url: receiver.url, description: 'Short' })).status).toBe(201);
    const { page, pageErrors } = await openEndpoint(base, merchant, 'Short');
    await page.getByRole('button', { name: 'Edit' }).click();
    const longest = 'd'.repeat(DESCRIPTION_MAX);
    await page.getByLabel('Description (optional)').fill(`${longest}e`);
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe(longest);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#endpoint-result').textContent(), { timeout: 5_000 }).toBe('Saved.');
    const [saved] = (await asMerchant('GET', '')).body.data;
    expect(saved.description).toBe(longest);
    expect(pageErrors).toEqual([]);
  });
});
