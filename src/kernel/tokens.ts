/**
 * Randomness, hashing and comparison of secrets in one place (docs/ordering.md#pay-tokens: tokens random, ≥128 bits, stored
 * only as a hash, compared in constant time).
 */
import { createHash, randomBytes, randomFillSync, randomUUID, timingSafeEqual } from 'node:crypto';

/** An opaque random secret: 32 bytes (256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random identifier for rows and messages; never derived from data. */
export function randomId(prefix = ''): string {
  return prefix + randomUUID();
}

/** Random bytes for timeOrderedId, filled 256 ids at a time (randomUUID keeps a pool the same way). */
const entropy = Buffer.alloc(16 * 256);
let entropyAt = entropy.length;

/**
 * A UUIDv7 (RFC 9562): the millisecond it was made, then 74 random bits, so ids made later sort later. For the rows
 * written at volume (notifications, deliveries, attempts, payments, charges, decisions: docs/running.md#the-database):
 * a random key puts each new row, and each row updated with its neighbours in time, on a page of its own in the
 * B-tree, and every such page is written again at each commit; ordered keys land on the last pages (a batch of 16
 * delivery attempts: its insert 200 → 43 µs, its commit 800 → 370–660 µs). The random part still makes an id
 * unguessable; it reveals when the row was made, as Svix's and Stripe's ids do. Hand-made: the uuid package's v7 asks
 * for fresh random bytes each time (2.5 µs an id, measured, against 0.06 µs for randomUUID).
 */
export function timeOrderedId(prefix = ''): string {
  if (entropyAt === entropy.length) {
    randomFillSync(entropy);
    entropyAt = 0;
  }
  const bytes = entropy.subarray(entropyAt, (entropyAt += 16));
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${prefix}${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The form a token is stored in. */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

/**
 * Compares two secrets in constant time, whatever their lengths: both sides are hashed first, so the
 * comparison always runs over 32 bytes and leaks neither content nor length.
 */
export function secretsEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/** Compares a presented token with a stored hash in constant time. */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
