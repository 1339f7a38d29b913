/**
 * The staff console at a busy desk, as an outside reviewer tried it: a double tap on a one-click step sends it once
 * (it sent two, and the second came back as a red "already in progress" although the step worked); a reload while
 * the server answers 503 for a moment keeps the tab signed in (it dropped the saved token and showed an empty
 * sign-in form), while a token the server refuses still signs the tab out; a publish of options edited from a version
 * another staff member replaced meanwhile is refused and says what is offered now (it silently brought a withdrawn
 * font back); what other desks change is said to a screen reader, and a section chosen from the nav takes focus.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { ADMIN_TOKEN, DESKTOP, startServer } from './ordering-support.ts';

const ORDER = { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'HI', name: 'Ada Lovelace', email: 'ada@example.com' };

describe.skipIf(!hasChromium)(`the staff console at a busy desk ${CHROMIUM_NOTE}`, () => {
  it('a double tap on a step sends it once and shows no error; a reload during a 503 keeps the tab signed in', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const created = await api.createOrder(ORDER);
    await api.pay(created.orderNumber, created.payToken);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    const advances: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.postData()?.includes('AdvanceOrder')) advances.push(request.url());
    });
    await page.goto(`${base}/staff`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#order-1001').waitFor({ state: 'visible', timeout: 5_000 });

    await page.getByRole('button', { name: 'Start stitching #1001' }).dblclick();
    await expect.poll(() => page.locator('#order-1001').getAttribute('data-status'), { timeout: 5_000 }).toBe('IN_PROGRESS');
    await page.waitForTimeout(300); // a second answer, had one been asked for, comes back in this time
    expect(advances).toHaveLength(1);
    expect(await page.locator('#queue-error').textContent()).toBe('');

    // The server answers 503 to the first two tries of the reload's sign-in, as during a database restart.
    let refused = 0;
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('StaffSignIn') && refused < 2) {
        refused += 1;
        return route.fulfill({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: JSON.stringify({ errors: [{ message: 'The service is busy. Try again shortly.', extensions: { code: 'UNAVAILABLE' } }] }) });
      }
      return route.continue();
    });
    await page.reload();
    await page.locator('#order-1001').waitFor({ state: 'visible', timeout: 15_000 });
    expect(refused).toBe(2);
    expect(await page.evaluate(() => sessionStorage.getItem('sleeve.staffToken'))).toBe(ADMIN_TOKEN);

    // A saved token the server refuses signs the tab out, and says why.
    await page.unroute('**/graphql');
    await page.evaluate(() => sessionStorage.setItem('sleeve.staffToken', 'not-the-token'));
    await page.reload();
    await expect.poll(() => page.locator('#token-error').textContent(), { timeout: 5_000 }).toContain('no longer the admin token');
    expect(await page.evaluate(() => sessionStorage.getItem('sleeve.staffToken'))).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('a publish of options edited from an older version is refused, says what is offered now, and keeps the edits', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await page.goto(`${base}/staff#/options`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const sizes = page.getByLabel('Sizes, one per line');
    await expect.poll(() => sizes.inputValue(), { timeout: 5_000 }).toContain('13-inch');
    await sizes.fill(`${await sizes.inputValue()}\n17-inch`);
    // Meanwhile another desk withdraws the font Serif (version 2).
    const current = await api.staff('{ sleeveOptions { sizes fontChoices { value family } threadChoices { value color } charLimit } }');
    const { sizes: s2, fontChoices, threadChoices, charLimit } = current.sleeveOptions;
    const input = { sizes: s2.map((value: string) => ({ value })), fonts: fontChoices.filter((c: { value: string }) => c.value !== 'Serif'), threads: threadChoices, charLimit };
    // The helper takes no variables: the input as a GraphQL literal (JSON with its keys unquoted).
    await api.staff(`mutation { updateSleeveOptions(input: ${JSON.stringify(input).replace(/"(\w+)":/gu, '$1:')}) { version } }`);
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => page.locator('#options-result').textContent(), { timeout: 5_000 }).toContain('Version 2 was published while you edited this form');
    expect(await page.locator('#options-result').textContent()).not.toContain('Serif');
    expect(await sizes.inputValue()).toContain('17-inch');
    expect((await api.staff('{ sleeveOptions { version } }')).sleeveOptions.version).toBe(2);
    // Published again, knowingly over version 2.
    await page.getByRole('button', { name: 'Publish options' }).click();
    await expect.poll(() => page.locator('#options-result').textContent(), { timeout: 5_000 }).toBe('Published: version 3 is offered now.');
    expect(pageErrors).toEqual([]);
  });

  it('says to a screen reader what other desks change, and puts focus on the heading of a section chosen from the nav', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    await page.goto(`${base}/staff`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 5_000 }).toBe('Live');

    const created = await api.createOrder(ORDER);
    await expect.poll(() => page.locator('#queue-announce').textContent(), { timeout: 5_000 }).toBe(`Order ${created.orderNumber} awaiting payment.`);
    await api.pay(created.orderNumber, created.payToken);
    await expect.poll(() => page.locator('#queue-announce').textContent(), { timeout: 5_000 }).toBe(`Order ${created.orderNumber} received.`);
    // A name is laid out in its own direction (a right-to-left name's parts came out in the wrong order).
    expect(await page.locator(`#order-${created.orderNumber} .who`).getAttribute('dir')).toBe('auto');
    expect(await page.locator('#queue-announce').getAttribute('aria-live')).toBe('polite');

    await page.getByRole('link', { name: 'Options & info' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 3_000 }).toBe('options-title');
    await page.getByRole('link', { name: 'Queue' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 3_000 }).toBe('queue-title');
    await page.evaluate(() => { location.hash = '#/orders/99999'; });
    await expect.poll(() => page.locator('#route-note').textContent(), { timeout: 3_000 }).toContain('There is no order 99999');
    expect(pageErrors).toEqual([]);
  });
});
