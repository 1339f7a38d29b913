/**
 * The staff console's queue is drawn anew at every change, so a card moves under a pointer: an outside review in
 * Chromium pointed at "Mark ready" of one order, another desk made the order above it ready, and the click moved the
 * order below the one aimed at; the second click of a double click moved on the order that took the first one's
 * place; a Cancel opened the dialog of another order. Steps go forward only, so an unfinished sleeve showed as ready.
 * A press on a button that had just come to where it was pressed, where another order's was, is refused and said;
 * a pointer that came to a card after it arrived, and the keyboard, act at once.
 *
 * The pages' clock is Playwright's, paused where it matters: the queue is drawn at the page's next frame, and a step
 * of the page's own time (runFor) draws it, so "a moment after the change" is a few milliseconds of the page's time
 * however slow the machine is.
 *
 * And what other desks change is said to a screen reader (#queue-announce), but not this desk's own changes, in
 * whatever order a change's stream copy and the mutation's answer arrive (the copy first said "Orders 1040 in
 * progress, 1040 ready, 1041 in progress, …" to a keyboard user moving orders on).
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NOTE, hasChromium, launchBrowser, openPage, pauseClockSoon } from '../support/browser.ts';
import { DESKTOP, PHONE, startServer } from './ordering-support.ts';
import {
  advancesOf,
  buttonAt,
  click,
  middleOf,
  note,
  otherDesk,
  paidOrders,
  queueError,
  refused,
  signIn,
  status,
  untilDrawn,
} from './staff-queue-support.ts';

describe.skipIf(!hasChromium)(`the staff console's queue under a pointer while cards move ${CHROMIUM_NOTE}`, () => {
  /** A server with `paid` orders of which the first `started` are in progress, and a laptop's staff page on its clock. */
  async function deskWith(paid: number, started: number, context: Parameters<typeof openPage>[1] = { viewport: DESKTOP }) {
    const { base, api } = await startServer();
    const made = await paidOrders(api, paid);
    for (const n of made.slice(0, started)) await otherDesk(api, n, 'IN_PROGRESS');
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, context);
    const advances = advancesOf(page);
    await page.clock.install();
    await signIn(page, base);
    return { api, page, pageErrors, advances };
  }

  it('refuses a click on a card that another desk’s change had just moved under the pointer, and says so; a pointer that came to it afterwards acts', { timeout: 90_000 }, async () => {
    const { api, page, pageErrors, advances } = await deskWith(5, 3);

    // Desk 1 points at "Mark ready" of 1002; another desk makes 1001, the card above it, ready; desk 1 clicks.
    const aimed = await middleOf(page, 'Mark ready #1002');
    await page.mouse.move(aimed.x, aimed.y);
    await pauseClockSoon(page);
    await otherDesk(api, '1001', 'READY');
    await untilDrawn(page, () => status(page, '1001'), 'READY');
    expect(await buttonAt(page, aimed)).toBe('Mark ready #1003');
    await click(page);
    // Nothing moved on: the click is refused, said, and the card that came under the pointer is marked.
    await expect.poll(async () => [await note(page), await status(page, '1003')], { timeout: 5_000 }).toEqual([refused('1003'), 'IN_PROGRESS']);
    expect(await page.locator('#order-1003').getAttribute('class')).toBe('order moved');
    expect(advances).toEqual([]);
    // Saying so moves nothing: the same button is under the pointer.
    expect(await buttonAt(page, aimed)).toBe('Mark ready #1003');

    // Looked again (a second of the page's time), the same click means that card: it moves on.
    await page.clock.runFor(1_000);
    await click(page);
    await expect.poll(() => status(page, '1003'), { timeout: 5_000 }).toBe('READY');
    expect(advances).toEqual(['1003']);
    expect([await note(page), await queueError(page)]).toEqual(['', '']);

    // A pointer that comes to a card after it arrived was aimed at it: it acts at once. Away on the Find button,
    // another desk starts 1004; 1005 takes its place, and a pointer moved onto its "Start stitching" a moment later
    // acts (the keyboard's Enter too: below).
    const away = await middleOf(page, 'Find');
    await page.mouse.move(away.x, away.y);
    await page.clock.runFor(1_000);
    await otherDesk(api, '1004', 'IN_PROGRESS');
    await untilDrawn(page, () => status(page, '1004'), 'IN_PROGRESS');
    await page.clock.runFor(50);
    const start = await middleOf(page, 'Start stitching #1005');
    await page.mouse.move(start.x, start.y);
    await click(page);
    await expect.poll(() => status(page, '1005'), { timeout: 5_000 }).toBe('IN_PROGRESS');
    expect(advances).toEqual(['1003', '1005']);
    expect([await note(page), await queueError(page)]).toEqual(['', '']);

    // But a hand already on its way when the card changed was aimed at what was there: from Find towards "Mark ready"
    // of 1004, moving every 20 ms of the page's time; another desk makes 1002 ready, 1005 takes 1004's place, and
    // the pointer arrives there after the change.
    await page.mouse.move(away.x, away.y);
    await page.clock.runFor(1_000);
    const goal = await middleOf(page, 'Mark ready #1004');
    const along = (f: number) => ({ x: away.x + (goal.x - away.x) * f, y: away.y + (goal.y - away.y) * f });
    let step = 0;
    const stepOn = async () => {
      step += 1;
      const at = along(Math.min(step, 16) / 20);
      await page.mouse.move(at.x + (step % 2), at.y);
    };
    for (let i = 0; i < 4; i++) {
      await stepOn();
      await page.clock.runFor(20);
    }
    await otherDesk(api, '1002', 'READY');
    await untilDrawn(page, async () => {
      await stepOn();
      return status(page, '1002');
    }, 'READY');
    for (const f of [0.85, 0.9, 0.95, 1]) {
      await page.mouse.move(along(f).x, along(f).y);
      await page.clock.runFor(20);
    }
    expect(await buttonAt(page, goal)).toBe('Mark ready #1005');
    await click(page);
    await expect.poll(async () => [await note(page), await status(page, '1005')], { timeout: 5_000 }).toEqual([refused('1005'), 'IN_PROGRESS']);
    expect(advances).toEqual(['1003', '1005']);
    expect(pageErrors).toEqual([]);
  });

  it('refuses a Cancel… that another desk’s change had just moved under a still pointer: no dialog for another order', { timeout: 90_000 }, async () => {
    const { api, page, pageErrors } = await deskWith(3, 0);
    // The pointer on Cancel of 1002; another desk starts 1001, the card above it; the click opens no dialog.
    const aimed = await middleOf(page, 'Cancel… #1002');
    await page.mouse.move(aimed.x, aimed.y);
    await pauseClockSoon(page);
    await otherDesk(api, '1001', 'IN_PROGRESS');
    await untilDrawn(page, () => status(page, '1001'), 'IN_PROGRESS');
    expect(await buttonAt(page, aimed)).toBe('Cancel… #1003');
    await click(page);
    const dialog = () => page.evaluate(() => (document.querySelector('#cancel-dialog') as HTMLDialogElement).open && document.querySelector('#cancel-number')!.textContent);
    await expect.poll(async () => [await note(page), await dialog()], { timeout: 5_000 }).toEqual([refused('1003'), false]);
    expect(pageErrors).toEqual([]);
  });

  it('the second click of a double click does not move on the order that took the first one’s place', { timeout: 90_000 }, async () => {
    const { api, page, pageErrors, advances } = await deskWith(3, 0);
    // The first click starts 1001, whose card leaves; the second lands where 1002 now is.
    const first = await middleOf(page, 'Start stitching #1001');
    await page.mouse.move(first.x, first.y);
    await pauseClockSoon(page);
    await click(page);
    await expect.poll(() => status(page, '1001'), { timeout: 5_000 }).toBe('IN_PROGRESS');
    expect(await buttonAt(page, first)).toBe('Start stitching #1002');
    await click(page, 2);
    await expect.poll(async () => [await note(page), await status(page, '1002')], { timeout: 5_000 }).toEqual([refused('1002'), 'RECEIVED']);
    expect(advances).toEqual(['1001']);
    expect((await api.staff('{ orders(status: [RECEIVED]) { edges { node { orderNumber } } } }')).orders.edges.map((e: any) => e.node.orderNumber)).toEqual(['1002', '1003']);
    expect(pageErrors).toEqual([]);
  });

  it('the second tap of a double tap on a phone neither scrolls the page nor moves on the next order', { timeout: 90_000 }, async () => {
    const { api, page, pageErrors, advances } = await deskWith(3, 0, { viewport: PHONE, hasTouch: true, isMobile: true });
    // A finger gives no sign of where it was before the tap. The first tap starts 1001; focus follows the order to
    // the "In progress" column below without scrolling (it scrolled it into view, under the finger).
    const tapped = await middleOf(page, 'Start stitching #1001');
    const scrolled = () => page.evaluate(() => scrollY);
    const top = await scrolled();
    await pauseClockSoon(page);
    await page.touchscreen.tap(tapped.x, tapped.y);
    await expect.poll(() => status(page, '1001'), { timeout: 5_000 }).toBe('IN_PROGRESS');
    expect(await scrolled()).toBe(top);
    expect(await buttonAt(page, tapped)).toBe('Start stitching #1002');
    await page.touchscreen.tap(tapped.x, tapped.y);
    await expect.poll(async () => [await note(page), await status(page, '1002')], { timeout: 5_000 }).toEqual([refused('1002'), 'RECEIVED']);
    expect(advances).toEqual(['1001']);
    expect((await api.staff('{ orders(status: [RECEIVED]) { edges { node { orderNumber } } } }')).orders.edges.map((e: any) => e.node.orderNumber)).toEqual(['1002', '1003']);
    expect(pageErrors).toEqual([]);
  });

  it('a keyboard user moves 25 orders to ready at once, and hears only what other desks change', { timeout: 120_000 }, async () => {
    const { base, api } = await startServer();
    await paidOrders(api, 29);
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser, { viewport: DESKTOP });
    // The mutation answers the page has read: the page acts on one (and is ready for the next key) at its reading.
    await page.addInitScript(() => {
      const json = Response.prototype.json;
      (window as any).answersRead = 0;
      Response.prototype.json = async function (this: Response) {
        const body = await json.call(this);
        if (body?.data && Object.keys(body.data).some((field) => /^(advance|cancel|collect)Order$/u.test(field))) (window as any).answersRead += 1;
        return body;
      };
    });
    const answersRead = () => page.evaluate(() => (window as any).answersRead as number);
    /** A focused button's name, else the focused element's id. */
    const focused = () => page.evaluate(() => {
      const element = document.activeElement;
      return element instanceof HTMLButtonElement ? element.textContent : element?.id;
    });
    await signIn(page, base);
    // Everything the live region says, in order.
    await page.evaluate(() => {
      (window as any).said = [];
      new MutationObserver(() => (window as any).said.push(document.querySelector('#queue-announce')!.textContent))
        .observe(document.querySelector('#queue-announce')!, { childList: true, characterData: true, subtree: true });
    });
    const said = () => page.evaluate(() => (window as any).said as string[]);

    // 25 orders, received → in progress → ready, by Enter alone: focus stays on the order's next step (on its card
    // once ready: the hand-over asks a name, not a key).
    let answers = 0;
    for (let i = 1; i <= 25; i++) {
      const n = String(1000 + i);
      await page.getByRole('button', { name: `Start stitching #${n}`, exact: true }).focus();
      for (const [next, shown] of [[`Mark ready #${n}`, 'IN_PROGRESS'], [`order-${n}`, 'READY']] as const) {
        await page.keyboard.press('Enter');
        answers += 1;
        await expect.poll(answersRead, { timeout: 5_000 }).toBe(answers);
        expect(await status(page, n)).toBe(shown);
        expect(await focused()).toBe(next);
      }
    }
    expect(await queueError(page)).toBe('');

    // The stream's copy of this desk's change first, its answer after (held until the copy is drawn): a step forward,
    // and a cancel from its dialog.
    const copyFirst = (drawn: string) => async (route: Route) => {
      const response = await route.fetch();
      await page.locator(drawn).waitFor({ state: 'attached', timeout: 5_000 });
      await route.fulfill({ response });
    };
    const only = (operation: string, n: string, handle: (route: Route) => Promise<void>) => async (route: Route) => {
      const body = route.request().postData() ?? '';
      if (body.includes(`"operationName":"${operation}"`) && JSON.parse(body).variables.n === n) return handle(route);
      return route.fallback();
    };
    await page.route('**/graphql', only('AdvanceOrder', '1026', copyFirst('#columns section[data-status="IN_PROGRESS"] #order-1026')));
    await page.getByRole('button', { name: 'Start stitching #1026', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(answersRead, { timeout: 5_000 }).toBe(++answers);
    await page.unrouteAll();
    await page.route('**/graphql', only('CancelOrder', '1027', copyFirst('#done-list #order-1027')));
    await page.getByRole('button', { name: 'Cancel… #1027', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('Thread ran out');
    await page.getByRole('button', { name: 'Cancel the order' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(answersRead, { timeout: 5_000 }).toBe(++answers);
    await page.locator('#cancel-dialog').waitFor({ state: 'hidden', timeout: 5_000 });
    await page.unrouteAll();

    // Another desk makes 1028 ready: that is said.
    await otherDesk(api, '1028', 'READY');
    await expect.poll(() => page.locator('#queue-announce').textContent(), { timeout: 5_000 }).toContain('1028 ready');

    // This desk asks to start 1029 while another desk cancels it: the step is refused, and the cancel is said.
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/graphql', only('AdvanceOrder', '1029', async (route) => { await held; await route.continue(); }));
    await page.getByRole('button', { name: 'Start stitching #1029', exact: true }).focus();
    await page.keyboard.press('Enter');
    await api.staff('mutation { cancelOrder(orderNumber: "1029", reason: "Duplicate") { status } }');
    await page.locator('#done-list #order-1029').waitFor({ state: 'attached', timeout: 5_000 });
    release();
    await expect.poll(() => queueError(page), { timeout: 5_000 }).not.toBe('');
    await expect.poll(() => page.locator('#queue-announce').textContent(), { timeout: 5_000 }).toContain('1029 cancelled');
    await page.unrouteAll();

    expect(await said()).toEqual(['Order 1028 ready.', 'Order 1029 cancelled.']);
    expect(pageErrors).toEqual([]);
  });
});
