/**
 * A reload of the form or of the confirmation keeps what was typed (a phone reloads a tab it discarded while its user
 * checked their mail; people pull to refresh): the choices, the stitch text, the name and the email, on the step the
 * tab was on. Kept in sessionStorage (this tab only, never the payToken) and gone once the order is made, so Back
 * from an order and a reload still show the order, as documented. Before, a reload emptied the form.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium } from '../support/browser.ts';
import { fillOrder, openOrderingPage, PHONE } from './ordering-support.ts';

const visibleStep = (page: Page) => page.evaluate(() => ['start', 'confirm', 'order'].filter((id) => !document.getElementById(id)!.hidden));
const ORDER = { size: '15-inch', font: 'Script', thread: 'White', stitchText: 'ADA 1815 ', name: 'Ada Lovelace', email: 'ada@example.com' };

/** What the form holds now. */
const formValues = (page: Page) => page.evaluate(() => ({
  size: document.querySelector<HTMLInputElement>('input[name="size"]:checked')?.value ?? null,
  font: document.querySelector<HTMLInputElement>('input[name="font"]:checked')?.value ?? null,
  thread: document.querySelector<HTMLInputElement>('input[name="thread"]:checked')?.value ?? null,
  stitchText: document.querySelector<HTMLInputElement>('#stitchText')!.value,
  name: document.querySelector<HTMLInputElement>('#name')!.value,
  email: document.querySelector<HTMLInputElement>('#email')!.value,
}));

describe.skipIf(!hasChromium)(`the ordering page reloaded mid-order ${CHROMIUM_NOTE}`, () => {
  it('keeps what was typed across a reload of the form and of the confirmation, until the order is made', { timeout: 90_000 }, async () => {
    const { base, page, pageErrors } = await openOrderingPage({ viewport: PHONE, isMobile: true, hasTouch: true });

    // Half typed, on the form.
    await page.locator('input[name="size"][value="15-inch"]').check();
    await page.getByLabel('Text to stitch').fill('ADA');
    await page.reload();
    await expect.poll(() => formValues(page), { timeout: 5_000 }).toEqual({ size: '15-inch', font: null, thread: null, stitchText: 'ADA', name: '', email: '' });
    expect(await visibleStep(page)).toEqual(['start']);

    // All typed, on the confirmation: the confirmation again, with every choice, the text as typed (its trailing space too).
    await fillOrder(page, ORDER);
    await page.reload();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['confirm']);
    expect(await page.locator('#confirm-text').textContent()).toBe(ORDER.stitchText);
    expect(await page.locator('#confirm-spelled').textContent()).toBe('A · D · A · space · 1 · 8 · 1 · 5 · space');
    for (const k of ['size', 'font', 'thread', 'name', 'email'] as const) expect(await page.locator(`#confirm-${k}`).textContent(), k).toBe(ORDER[k]);
    // Back from it still goes to the form, with everything typed.
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    expect(await formValues(page)).toEqual(ORDER);
    await page.goForward();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['confirm']);
    // Kept for this tab only, and never a payToken.
    expect(await page.context().newPage().then(async (other) => { await other.goto(base); return other.evaluate(() => sessionStorage.length); })).toBe(0);

    await page.getByRole('button', { name: 'Yes, stitch exactly this' }).click();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    const payToken = await page.evaluate(() => JSON.parse(localStorage.getItem('sleeve.order')!).payToken as string);
    const session = await page.evaluate(() => Object.entries(sessionStorage));
    expect(session.filter(([, value]) => value.includes(payToken))).toEqual([]);
    expect(session.filter(([, value]) => value.includes(ORDER.email))).toEqual([]);

    // The order made, Back and a reload show the order again (README: "Forward or a reload shows it").
    await page.goBack();
    await expect.poll(() => visibleStep(page), { timeout: 3_000 }).toEqual(['start']);
    await page.reload();
    await expect.poll(() => visibleStep(page), { timeout: 5_000 }).toEqual(['order']);
    expect(pageErrors).toEqual([]);
  });

  it('checks the confirmation again after a reload: a choice withdrawn meanwhile is chosen again on the form', { timeout: 90_000 }, async () => {
    const { base, api, page, pageErrors } = await openOrderingPage();
    await fillOrder(page, ORDER);
    const current = await api.staff('{ sleeveOptions { sizes fontChoices { value family } threadChoices { value color } charLimit } }');
    const { sizes, fontChoices, threadChoices, charLimit } = current.sleeveOptions;
    const input = { sizes: sizes.map((value: string) => ({ value })), fonts: fontChoices.filter((c: { value: string }) => c.value !== 'Script'), threads: threadChoices, charLimit };
    await api.staff(`mutation { updateSleeveOptions(input: ${JSON.stringify(input).replace(/"(\w+)":/gu, '$1:')}) { version } }`);
    // The live page goes back to the form by itself; the reload (on whichever step) keeps the rest of what was typed.
    await page.reload();
    await expect.poll(() => formValues(page), { timeout: 5_000 }).toEqual({ ...ORDER, font: null });
    expect(await visibleStep(page)).toEqual(['start']);
    expect(pageErrors).toEqual([]);
  });
});
