/**
 * Two characters no field takes (docs/edge.md#bounds); every body and every GraphQL variable holding one is refused,
 * 400 in its path's shape, naming where, before anything runs:
 *
 * - Half of a UTF-16 surrogate pair on its own (`"\ud800"`), which JSON may spell but is no Unicode text: stored, it
 *   became U+FFFD in PostgreSQL and SQLite alike, so `sur\ud800@example.com` and `sur\udfff@example.com` were two
 *   emails to "one order per email" and one once stored, an `orderId` came back other than it was sent, and a
 *   webhook URL was stored corrupted.
 * - U+0000 (`"\u0000"`), which PostgreSQL's text cannot hold: every path that stored or looked up such a value
 *   answered 500 `internal`, retryable, so a client following the rules retried it for ever; SQLite stored it.
 */

/** Escapes that may spell either: `\uD800` to `\uDFFF` in any case, and `\u0000`. The cheap test of the raw text. */
const FORBIDDEN_ESCAPE = /\\u(?:[dD][89a-fA-F][0-9a-fA-F]{2}|0000)/u;
/** With the `u` flag a pair is one code point, so only a lone half is `Cs`. */
const FORBIDDEN_CHARACTER = /[\p{Cs}\u0000]/u;

export type ForbiddenCharacter = 'lone surrogate' | 'NUL';

/** Where a forbidden character is (`input.email`, `items[2]`), and which. */
export interface ForbiddenText {
  at: string;
  character: ForbiddenCharacter;
}

/** Whether raw JSON text could hold a forbidden character (most bodies skip the walk below). */
export const mayHoldForbiddenCharacter = (json: string): boolean => FORBIDDEN_ESCAPE.test(json);

/** Deeper than this the walk stops: the doors refuse JSON nested past 64 levels on their own (docs/edge.md#bounds). */
const MAX_WALK_DEPTH = 100;

/** Which forbidden character `text` holds first, or null. */
export function forbiddenCharacterIn(text: string): ForbiddenCharacter | null {
  const match = FORBIDDEN_CHARACTER.exec(text);
  return match ? (match[0] === '\u0000' ? 'NUL' : 'lone surrogate') : null;
}

const found = (text: string, at: string): ForbiddenText | null => {
  const character = forbiddenCharacterIn(text);
  return character ? { at, character } : null;
};

/** The first string or key holding a forbidden character; null when none does. */
export function forbiddenCharacterAt(value: unknown, path = '', depth = 0): ForbiddenText | null {
  if (typeof value === 'string') return found(value, path || 'body');
  if (depth > MAX_WALK_DEPTH || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inside = forbiddenCharacterAt(value[i], `${path}[${i}]`, depth + 1);
      if (inside !== null) return inside;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const inside = found(key, at) ?? forbiddenCharacterAt(item, at, depth + 1);
    if (inside !== null) return inside;
  }
  return null;
}

export const forbiddenCharacterMessage = (at: string, character: ForbiddenCharacter): string =>
  character === 'NUL'
    ? `${at} holds the character U+0000 (NUL), which no field takes.`
    : `${at} is not Unicode text: it holds half of a surrogate pair (\\uD800 to \\uDFFF) on its own.`;
