/**
 * Email rules of document 1 §2 (OrderInput.email) and the key that makes "one order per email" hold.
 */
export const EMAIL_MAX_LENGTH = 254;

// One ordinary address: a local part and a dotted domain, no spaces, quotes, commas or brackets.
const FORBIDDEN = /[\s"'(),:;<>[\]\\]/u;
// Control and format characters (BEL, a right-to-left override, a zero-width space): none is an ordinary address,
// and one unseen makes two addresses look alike to a person comparing them.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const ADDRESS = /^[^@]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/u;

/** Returns a sentence naming what is wrong, or null when the address is acceptable. */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed.length === 0) return 'Email is empty.';
  if (trimmed.length > EMAIL_MAX_LENGTH) return `Email is longer than ${EMAIL_MAX_LENGTH} characters.`;
  if (FORBIDDEN.test(trimmed)) return 'Email may not contain spaces, quotes, commas or brackets.';
  if (INVISIBLE.test(trimmed)) return 'Email may not contain control or invisible characters.';
  if (!ADDRESS.test(trimmed)) return 'Email must be one ordinary address, like name@example.com.';
  const local = trimmed.slice(0, trimmed.indexOf('@'));
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return 'Email must be one ordinary address, like name@example.com.';
  }
  return null;
}

/** docs/ordering.md#one-order-per-email: emails compare case-insensitively after trimming. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
