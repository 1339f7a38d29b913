/**
 * How the portal words endpoints and deliveries in states a test server reaches only slowly or by chance (an outside
 * review of the portal): a throttle that holds a delivery past its own nextAttemptAt, a disabled endpoint, a stored
 * reason written with a raw ISO time, an attempt in flight, a timeout. The page is the real one from a real server;
 * the endpoint API's answers are given by the test (page.route), in the shape the REST door answers.
 * Before: "next" showed a past time under "paused until", a disabled endpoint's deliveries showed a "next" time too,
 * the banner said "failed since 2026-12-04T04:34:19.221Z (ENDPOINT_DISABLE_AFTER)", no time named its zone, an
 * attempt in flight read "Not attempted yet.", a timeout "No answer (no answer within 10 s) in 10001 ms", and no delivery
 * said when it was made but in its attempts' table, closed.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { linesBeginningWithDot, startServer } from './ordering-support.ts';
import { LAPTOP, lookAtPortal, signIn } from './portal-support.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The endpoints and deliveries the API answers, with times around `now`. */
function fixtures(now: number) {
  const endpoint = (id: string, fields: Record<string, unknown>) => ({
    id, siteId: 'site_states', url: `https://hooks.example.com/${id}`, description: id, eventTypes: [], enabled: true,
    disabledReason: null, failingSince: null, throttledUntil: null, previousSecretExpiresAt: null, createdAt: iso(now - 86_400_000), updatedAt: iso(now), ...fields,
  });
  const delivery = (endpointId: string, webhookId: string, fields: Record<string, unknown>) => ({
    id: `dlv_${webhookId}`, webhookId, endpointId, siteId: 'site_states', eventType: 'token-updated', status: 'PENDING', attemptCount: 0,
    nextAttemptAt: iso(now), createdAt: iso(now - 120_000), deliveredAt: null, lastError: null, attempts: [], ...fields,
  });
  const timeout = { attempt: 1, startedAt: iso(now - 40_000), durationMs: 10_001, statusCode: null, responseExcerpt: null, error: 'no answer within 10 s' };
  const failingSince = now - 95 * 60_000;
  const throttledUntil = iso(now + 2 * 3_600_000);
  const endpoints = [
    endpoint('throttled', { failingSince: iso(now - 60_000), throttledUntil }),
    endpoint('disabled', { enabled: false, failingSince: iso(failingSince), disabledReason: `Every attempt failed since ${iso(failingSince)} (ENDPOINT_DISABLE_AFTER).` }),
    endpoint('sending', {}),
  ];
  const deliveries: Record<string, unknown[]> = {
    // Its own time is past; the throttle holds it two hours more.
    throttled: [delivery('throttled', 'msg_held', { attemptCount: 1, nextAttemptAt: iso(now - 20_000), lastError: timeout.error, attempts: [timeout] })],
    disabled: [delivery('disabled', 'msg_waiting', { attemptCount: 1, nextAttemptAt: iso(now - 60_000), attempts: [{ ...timeout, statusCode: 500, error: null, durationMs: 12, responseExcerpt: 'down' }] })],
    // Claimed and in flight: its nextAttemptAt is the lease's end and no attempt is recorded yet.
    sending: [delivery('sending', 'msg_inflight', { nextAttemptAt: iso(now + 30_000) })],
  };
  return { endpoints, deliveries, failingSince, throttledUntil };
}

/** The API as the fixtures say: the list, and each endpoint's one page of deliveries. */
async function answerFromFixtures(page: Page, now: number) {
  const { endpoints, deliveries } = fixtures(now);
  await page.route('**/v1/webhooks/endpoints**', async (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\/v1\/webhooks\/endpoints/u, '');
    const shown = /^\/([^/]+)\/deliveries$/u.exec(path);
    const body = path === '' ? { data: endpoints } : shown ? { data: deliveries[shown[1]!] ?? [], hasMore: false, nextCursor: null } : null;
    await route.fulfill(body ? { status: 200, contentType: 'application/json', body: JSON.stringify(body) } : { status: 404, contentType: 'application/json', body: '{"message":"No webhook endpoint has that id."}' });
  });
}

/** The page's own wording of a time (portal-health.js `when`), in the page's zone and language. */
// A string, not a function: vitest would rewrite a function's import() into a helper the page does not have.
const pageWhen = (page: Page, at: string) => page.evaluate<string>(`import('/assets/app/portal-health.js').then((m) => m.when(${JSON.stringify(at)}))`);
const meta = (page: Page, webhookId: string) => page.locator(`#delivery-list li[data-webhook-id="${webhookId}"] .meta`).textContent();

describe.skipIf(!hasChromium)(`the merchant portal's times and waits in headless Chromium ${CHROMIUM_NOTE}`, () => {
  it('says when a held delivery is really sent, that a disabled endpoint\'s wait for it, and what an attempt in flight or a timeout is', { timeout: 60_000 }, async () => {
    const { base } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: LAPTOP, colorScheme: 'light', timezoneId: 'America/New_York', locale: 'en-US' });
    const now = Date.now();
    const { failingSince, throttledUntil } = fixtures(now);
    await answerFromFixtures(page, now);
    await page.goto(`${base}/portal`);
    await signIn(page, 'site_states', 'key_states');

    // Throttled: the delivery's "next" is the throttle's end, not its own past time; a timeout is said once.
    await page.getByRole('link', { name: 'throttled' }).click();
    await expect.poll(() => meta(page, 'msg_held'), { timeout: 5_000 }).toMatch(/^msg_held · /u);
    const until = await pageWhen(page, throttledUntil);
    // Each delivery says when it was made, one click less than its attempts' times (the staff console's list did).
    const created = await pageWhen(page, iso(now - 120_000));
    expect.soft(await meta(page, 'msg_held')).toBe(`msg_held · created ${created} · last attempt No answer within 10 s · next ${until}`);
    // Wherever that line wraps, from the laptop layout's narrowest width to a laptop's, no line begins with a "·" (one
    // did at some widths: a break was allowed before the dot that followed a part).
    for (let width = 768; width <= LAPTOP.width; width += 6) {
      await page.setViewportSize({ width, height: LAPTOP.height });
      expect.soft(await linesBeginningWithDot(page, '#delivery-list'), `${width} px wide`).toEqual([]);
    }
    await page.setViewportSize(LAPTOP);
    await page.locator('#delivery-list summary').click();
    expect.soft(await page.locator('tr.attempt td').nth(2).textContent()).toBe('No answer within 10 s');
    expect.soft(await page.locator('tr.attempt td').nth(3).textContent()).toBe('—');
    // Every time names its zone (short), as the merchant's receiver logs may be in another.
    expect.soft(until).toMatch(/ E[SD]T$/u);
    expect.soft(await page.locator('#endpoint-health').textContent()).toContain(`paused until ${until}`);

    // Disabled: the stored reason's ISO time is worded like every other and the operator's setting left out; its
    // deliveries wait for the endpoint, not for a time; Redeliver and Recover are not offered, and say why.
    await page.getByRole('link', { name: 'disabled' }).click();
    await expect.poll(() => meta(page, 'msg_waiting'), { timeout: 5_000 }).toMatch(/^msg_waiting · /u);
    const since = await pageWhen(page, new Date(failingSince).toISOString());
    expect.soft(await page.locator('#endpoint-health').textContent()).toBe(`Disabled: Every attempt failed since ${since}. Nothing is sent to it and its undelivered messages are kept: enable it, then recover them.`);
    expect.soft(await meta(page, 'msg_waiting')).toBe(`msg_waiting · created ${created} · last attempt 500 in 12 ms · waits until the endpoint is enabled`);
    const redeliver = page.getByRole('button', { name: /^Redeliver/u });
    expect.soft(await redeliver.isDisabled()).toBe(true);
    expect.soft(await page.getByRole('button', { name: 'Recover' }).isDisabled()).toBe(true);
    expect.soft(await redeliver.getAttribute('aria-describedby')).toBe('send-again-note');
    expect.soft(await page.locator('#send-again-note:visible, #recover-note:visible').count()).toBe(2);
    await lookAtPortal(page, 'disabled-waiting');

    // In flight: no attempt recorded yet, and it is being sent, not "not attempted".
    await page.getByRole('link', { name: 'sending' }).click();
    await expect.poll(() => meta(page, 'msg_inflight'), { timeout: 5_000 }).toMatch(/^msg_inflight/u);
    expect.soft(await meta(page, 'msg_inflight')).toBe(`msg_inflight · created ${created} · being sent`);
    await page.locator('#delivery-list summary').click();
    expect.soft(await page.locator('#delivery-list details .hint').textContent()).toBe('Being sent: no answer yet.');
    // Enabled again: Redeliver and Recover are offered, and the note is gone.
    expect.soft(await page.getByRole('button', { name: /^Redeliver/u }).isEnabled()).toBe(true);
    expect.soft(await page.getByRole('button', { name: 'Recover' }).isEnabled()).toBe(true);
    expect.soft(await page.locator('#send-again-note').isHidden()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
