/**
 * Randomness, hashing and comparison of secrets in one place (docs/ordering.md#pay-tokens: tokens random, ≥128 bits, stored
 * only as a hash, compared in constant time).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** An opaque random secret: 32 bytes (256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random identifier for rows and messages; never derived from data. */
export function randomId(prefix = ''): string {
  return prefix + randomUUID();
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
