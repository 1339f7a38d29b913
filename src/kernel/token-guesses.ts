/**
 * Requests that name an order and a payToken count against their client address only when the token does not open
 * the order (docs/edge.md#wrong-tokens). At a venue every attendee shares the NAT's address: when every lookup and
 * pay counted against it up front, one script trying tokens (each a new subject, so never held by the per-subject
 * limit) spent the budget the whole venue shares, and owners paying with their own token met 429 (a venue review
 * measured 68% of honest pays refused). Now the subject's count (order and token) is taken first, as before; the
 * address's count is taken here, after the service has said the request did not get that far, and over it the
 * answer is 429 instead of the failure. A script is held to the same budget as before; an owner is not in it.
 */
import { DomainError, type ErrorCode } from './errors.ts';
import { enforceRateLimit, type RateLimiter, type TokenGroup } from './rate-limiter.ts';

/** The failures that come before a token is known to open the order: bad input, or no order that token opens. */
const UNOPENED: ReadonlySet<ErrorCode> = new Set(['bad_request', 'validation_failed', 'not_found']);

/** Whether `error` says the request never proved it holds the order (its address's count is then owed). */
function isUnopened(error: unknown): boolean {
  return error instanceof DomainError && UNOPENED.has(error.code);
}

/** Counts a request of `group` that did not open its order against `client`; over the budget, 429 `rate_limited`. */
function countUnopened(limiter: RateLimiter, group: TokenGroup, client: string): Promise<void> {
  return enforceRateLimit(limiter, `unopened-${group}`, client);
}

/**
 * Runs `open` (the work of a lookup or pay, from reading its input to opening the order with the token); when it
 * fails unopened, counts that against `client` and rethrows its failure, or the 429 once over the budget.
 */
export async function openedOrCounted<T>(limiter: RateLimiter, group: TokenGroup, client: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (isUnopened(error)) await countUnopened(limiter, group, client);
    throw error;
  }
}
