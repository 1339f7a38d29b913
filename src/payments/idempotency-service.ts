/**
 * `Idempotency-Key` on /api/payments (docs/platform.md#idempotency-keys): the same key with the same body replays the first response
 * (status and body); the same key with another body is 400; concurrent requests with one key make one payment.
 * An insert-first claim on the unique (site, key) decides who runs; the others wait for the stored response.
 * A key whose holder died (a crash between claim and record) is taken over once its lease has run out: the new
 * holder finishes the work through the one pay flow, whose processor call is idempotent under the payment's id, and
 * the old holder, if it was only slow, can no longer reserve a payment under the key (bindIdempotencyKey).
 * Keys are kept at least 24 hours.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../kernel/clock.ts';
import { DomainError } from '../kernel/errors.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import * as payments from './payment-repository.ts';
import { sha256Hex } from '../kernel/tokens.ts';
import { canonicalJson } from '../kernel/canonical-json.ts';

export const IDEMPOTENCY_KEEP_MS = 48 * 3600_000;
/**
 * How long a `processing` key is its holder's alone. Reserve and record are each one short transaction and the
 * processor call is bounded, so a holder that has not settled by then has died or will find its claim gone.
 */
export const KEY_LEASE_MS = 5_000;
/** How long a repeat waits for the holder's answer before it is told to retry (503, retryable). */
const WAIT_LIMIT_MS = 3_000;
/**
 * How a key's body is recorded, within its column's 64 characters: `k1:` and its base64url digest under the vault
 * key (vault-crypto.ts requestDigests). The body holds the card number and CVC, and a plain hash of it could be
 * tested against guesses: the number's first 8 and last 4 digits, kept in the clear, leave about a million. A digest
 * under a key of VAULT_PREVIOUS_KEYS still matches, and so does a plain SHA-256 (64 hex digits) stored before this
 * format, until its key is pruned.
 */
const KEYED = 'k1:';
/** Old keys are pruned at most once an hour per process, by whichever request comes first. */
let lastPrune = 0;

/** The body of the first answer to a key (docs/platform.md#payments), replayed for every repeat. */
export type StoredResponse = Record<string, unknown>;

/** The key being run: `paymentId` is set when an earlier attempt reserved a payment whose outcome is unknown. */
export interface Claim {
  siteId: string;
  key: string;
  paymentId: string | null;
  /** The key's `updated_at` when this caller claimed it: the claim is its own while that still holds. */
  claimedAt: number;
}

export function checkIdempotencyKey(key: string | undefined): string | null {
  if (key === undefined) return null;
  if (key.length < 1 || key.length > 255) {
    throw new DomainError('bad_request', 'Idempotency-Key must be 1 to 255 characters.', { field: 'Idempotency-Key', errors: [{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 characters.' }] });
  }
  return key;
}

/**
 * Runs `run` once for (site, key, body): the winner of the claim runs it (it must settle the key in its record
 * transaction); every other request replays the stored response. `run` failing before it settled frees the key
 * (or, once a payment was reserved, leaves it for a retry to reconcile).
 */
export async function withIdempotency(
  db: Db,
  clock: Clock,
  claim: { siteId: string; key: string; body: unknown; digests: (text: string) => string[] },
  run: (claim: Claim) => Promise<StoredResponse>,
): Promise<StoredResponse> {
  const text = canonicalJson(claim.body);
  const digests = claim.digests(text).map((digest) => KEYED + digest);
  const fingerprint = digests[0]!;
  const sameBody = (stored: string) => (stored.startsWith(KEYED) ? digests.includes(stored) : stored === sha256Hex(text));
  const { siteId, key } = claim;
  const started = Date.now();
  for (;;) {
    const now = clock.now();
    if (now - lastPrune > 3600_000) {
      lastPrune = now;
      await payments.pruneIdempotencyKeys(db, now - IDEMPOTENCY_KEEP_MS);
    }
    let claimed: Claim | null = null;
    try {
      await payments.insertIdempotencyKey(db, { site_id: siteId, idem_key: key, fingerprint, state: 'processing', payment_id: null, response_status: null, response_body: null, created_at: now, updated_at: now });
      claimed = { siteId, key, paymentId: null, claimedAt: now };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    if (!claimed) {
      const seen = await payments.findIdempotencyKey(db, siteId, key);
      if (!seen) continue; // freed in between: try to claim it again
      if (!sameBody(seen.fingerprint)) {
        const message = 'This Idempotency-Key was already used with a different request body. Use a new key for a new request.';
        throw new DomainError('bad_request', message, { field: 'Idempotency-Key', errors: [{ field: 'Idempotency-Key', message }] });
      }
      if (seen.state === 'done') return JSON.parse(seen.response_body!) as StoredResponse;
      const leaseOver = seen.state === 'processing' && now - Number(seen.updated_at) > KEY_LEASE_MS;
      if ((seen.state === 'retryable' || leaseOver) && (await payments.reclaimIdempotencyKey(db, seen, now))) {
        claimed = { siteId, key, paymentId: seen.payment_id, claimedAt: now };
      } else {
        // Another request holds the key: wait for its response (real time — it is another request's progress). Past
        // the wait the answer is retryable, never final: the work may be done by the time the client asks again.
        if (Date.now() - started > WAIT_LIMIT_MS) {
          throw new DomainError('unavailable', 'A request with this Idempotency-Key is still being processed. Retry it with the same key in a moment.', {
            retryAfter: Math.ceil(KEY_LEASE_MS / 1000),
          });
        }
        await sleep(10);
        continue;
      }
    }
    try {
      return await run(claimed);
    } catch (error) {
      await payments.releaseIdempotencyKey(db, siteId, key, claimed.claimedAt, clock.now());
      throw error;
    }
  }
}
