/**
 * What a screen reader is told: every write to a live region (aria-live other than off, role=status, alert or log) of
 * a page, recorded inside the page by a MutationObserver installed before its scripts run. A write of the text a
 * region already holds counts too: it replaces the region's text node, which Chrome reports as an addition.
 */
import type { Page } from 'playwright-core';

export interface LiveWrite {
  /** The region's id. */
  id: string;
  /** The region's whole text after the write. */
  text: string;
}

/** Starts recording on every document `page` opens from now on (call before `goto`). */
export async function recordLiveWrites(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const writes: Array<{ id: string; text: string }> = [];
    (window as unknown as { liveWrites: typeof writes }).liveWrites = writes;
    new MutationObserver((records) => {
      for (const record of records) {
        const node = record.target.nodeType === Node.ELEMENT_NODE ? (record.target as Element) : record.target.parentElement;
        const region = node?.closest('[aria-live],[role=status],[role=alert],[role=log]');
        if (!region || region.getAttribute('aria-live') === 'off') continue;
        // Emptying a region is not said; anything written into it is.
        const added = record.type === 'characterData' ? record.target.textContent : [...record.addedNodes].map((n) => n.textContent).join('');
        if (added) writes.push({ id: region.id, text: region.textContent ?? '' });
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The writes recorded so far, of the region `id` only when given. */
export function liveWrites(page: Page, id?: string): Promise<LiveWrite[]> {
  return page.evaluate((only) => {
    const writes = (window as unknown as { liveWrites: LiveWrite[] }).liveWrites;
    return writes.filter((w) => only === undefined || w.id === only);
  }, id);
}
