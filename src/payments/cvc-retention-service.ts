/**
 * A CVC is kept only for the payment it serves (docs/platform.md#card-data-at-rest). It is erased when that payment
 * is recorded; a token whose payment never comes — a card entered on the pay page of an order then cancelled or run
 * out of its hold, a card tokenized with its CVC and never charged — loses it CVC_KEPT_MS after it was made, or at
 * the end of the longest hold if that is later. It was kept for ever, sealed: a security review found 58-byte CVCs
 * on cancelled orders' tokens, where card rules allow none past the authorisation it was given for.
 */
import type { ServiceDeps } from '../kernel/service-deps.ts';
import * as vault from './vault-repository.ts';

/** How long an unused token keeps its CVC: a checkout's time, well past the 5-minute hold. */
export const CVC_KEPT_MS = 15 * 60_000;

/** CVCs erased per statement: a backlog (after an upgrade) goes in batches, each sweep taking the next at once. */
const ERASE_BATCH = 500;

export interface CvcRetention {
  /** Erases a batch of CVCs kept past their time; `more` when a next batch waits. */
  eraseExpiredCvcs(): Promise<{ erased: number; more: boolean }>;
  /** When the next kept CVC's time ends; null when no token holds one. */
  nextCvcExpiry(): Promise<number | null>;
}

export function createCvcRetention(deps: Pick<ServiceDeps, 'database' | 'clock' | 'holdSeconds'>): CvcRetention {
  const { database, clock, holdSeconds } = deps;
  // A pay page's card must still have its CVC when it pays at the last second of a hold, however long HOLD_SECONDS is.
  const keptMs = Math.max(CVC_KEPT_MS, holdSeconds * 1000);
  return {
    async eraseExpiredCvcs() {
      const erased = await vault.eraseCvcsMadeUntil(database.db, clock.now() - keptMs, ERASE_BATCH);
      return { erased, more: erased === ERASE_BATCH };
    },
    async nextCvcExpiry() {
      const oldest = await vault.oldestKeptCvc(database.db);
      return oldest === null ? null : oldest + keptMs;
    },
  };
}
