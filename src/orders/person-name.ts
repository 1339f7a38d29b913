/**
 * Name rules of document 1 §2 (OrderInput.name) with docs/ordering.md#names of them, and the pickup match.
 */
export const NAME_MAX_LENGTH = 40;
export const NAME_MAX_WORDS = 5;

// Unicode letters (with their combining marks), spaces, apostrophes (straight and typographic), hyphens, full stops.
const ALLOWED = /^[\p{L}\p{M} '’.-]+$/u;
const LINK = /:\/\/|www\.|[\p{L}\p{N}-]\.(?:[a-z]{2,})(?:$|[\s/])/iu;

function words(name: string): string[] {
  return name.trim().split(/ +/u).filter(Boolean);
}

/** The name as it is stored and shown: trimmed, one space between words (the 40 characters are counted on it). */
export function storedName(name: string): string {
  return name.trim().replace(/ +/gu, ' ');
}

export function nameProblem(name: string): string | null {
  const trimmed = storedName(name);
  if (trimmed.length === 0) return 'Name is empty.';
  // Characters, not UTF-16 units: a letter outside the Basic Multilingual Plane is one character of a name.
  if ([...trimmed].length > NAME_MAX_LENGTH) return `Name is longer than ${NAME_MAX_LENGTH} characters.`;
  if (LINK.test(trimmed)) return 'Name may not contain a link or web address.';
  if (!ALLOWED.test(trimmed)) return 'Name may contain only letters, spaces, apostrophes, hyphens and full stops.';
  if (!/\p{L}/u.test(trimmed)) return 'Name must contain letters.';
  const count = words(trimmed).length;
  if (count < 2) return 'Give a first and last name; they are checked at pickup.';
  if (count > NAME_MAX_WORDS) return `Name has more than ${NAME_MAX_WORDS} words.`;
  return null;
}

/**
 * A form of a name for comparison: case, accents and extra spaces ignored, and the marks a person says no word for —
 * apostrophes, hyphens, full stops — dropped, so each word is its letters (docs/ordering.md#collecting-an-order).
 */
export function comparableName(name: string): string {
  return words(
    name
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/['’.-]/gu, ''),
  ).join(' ');
}

/** Each word run from the start (`from: 'start'`) or back from the end, joined: ["jean", "jeanluc", …]. */
function joinedRuns(parts: string[], from: 'start' | 'end'): Map<string, number> {
  const runs = new Map<string, number>();
  for (let length = 1; length < parts.length; length++) {
    const run = from === 'start' ? parts.slice(0, length) : parts.slice(parts.length - length);
    if (!runs.has(run.join(''))) runs.set(run.join(''), length);
  }
  return runs;
}

/**
 * The collector's first and last name must match the order's first and last name. Staff type what they hear, so a
 * name's punctuation is no part of it and its pieces may be heard as one word or two: `Jean-Luc Picard` is collected
 * by "Jean Luc Picard", `Seán O'Connor` by "Sean OConnor" or "Sean O Connor", `J. R. Tolkien` by "J R Tolkien".
 * Words run together from the start must spell the same first name on both sides, and from the end the same last
 * name, each side keeping a word for the other.
 */
export function collectorMatches(orderName: string, collectorName: string): boolean {
  const order = comparableName(orderName).split(' ').filter(Boolean);
  const collector = comparableName(collectorName).split(' ').filter(Boolean);
  if (collector.length < 2 || order.length < 2) return false;
  const orderFirst = joinedRuns(order, 'start');
  const orderLast = joinedRuns(order, 'end');
  for (const [first, firstLength] of joinedRuns(collector, 'start')) {
    const orderFirstLength = orderFirst.get(first);
    if (orderFirstLength === undefined) continue;
    for (const [last, lastLength] of joinedRuns(collector, 'end')) {
      const orderLastLength = orderLast.get(last);
      if (orderLastLength !== undefined && firstLength + lastLength <= collector.length && orderFirstLength + orderLastLength <= order.length) return true;
    }
  }
  return false;
}

/** Public form for the pickup board: first name and last initial, never the whole name. */
export function displayName(name: string): string {
  const parts = words(name);
  const first = parts[0] ?? '';
  const last = parts.length > 1 ? parts[parts.length - 1]! : '';
  return last ? `${first} ${Array.from(last)[0]!.toUpperCase()}.` : first;
}
