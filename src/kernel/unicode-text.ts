/**
 * JSON may spell half of a UTF-16 surrogate pair on its own (`"\ud800"`), which is no Unicode text: stored, it
 * became U+FFFD in PostgreSQL and SQLite alike, so `sur\ud800@example.com` and `sur\udfff@example.com` were two
 * emails to "one order per email" and one once stored, an `orderId` came back other than it was sent, and a webhook
 * URL was stored corrupted (docs/edge.md#bounds). Every body and every GraphQL variable is refused with such text in
 * it, 400 in its path's shape, naming where.
 */

/** An escape that may spell a lone half: `\uD800` to `\uDFFF`, in any case. The cheap test of the raw text first. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/u;
/** With the `u` flag a pair is one code point, so only a lone half is `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether raw JSON text could hold a lone surrogate (most bodies skip the walk below). */
export const maySpellLoneSurrogate = (json: string): boolean => SURROGATE_ESCAPE.test(json);

/** Deeper than this the walk stops: the doors refuse JSON nested past 64 levels on their own (docs/edge.md#bounds). */
const MAX_WALK_DEPTH = 100;

/** The path (`input.email`, `items[2]`) of the first string or key holding a lone surrogate; null when none does. */
export function loneSurrogateAt(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path || 'body' : null;
  if (depth > MAX_WALK_DEPTH || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogateAt(value[i], `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (LONE_SURROGATE.test(key)) return at;
    const found = loneSurrogateAt(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const loneSurrogateMessage = (at: string): string => `${at} is not Unicode text: it holds half of a surrogate pair (\\uD800 to \\uDFFF) on its own.`;
