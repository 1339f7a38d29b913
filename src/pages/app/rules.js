/**
 * The order rules of document 1 §2 for the browser, so the ordering page shows them while the user types and the
 * staff console can show a pickup match before asking the server. The server stays the authority; these are
 * copies of src/orders/order-input.ts, email.ts and person-name.ts, kept equal by test/browser/order-page.test.ts
 * (same inputs, same answers, same sentences).
 */

/** Document 1 §2: letters, digits, spaces, `.`, `-`, `&`; starts with a letter or digit. */
const STITCH_TEXT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 .\-&]*$/u;
export const STITCH_TEXT_CHARACTERS = 'letters A–Z, digits, spaces, "." "-" "&"; start with a letter or digit';

export function stitchTextProblem(text, charLimit) {
  if (!STITCH_TEXT_PATTERN.test(text)) {
    return 'stitchText may use only the letters A to Z without accents, digits, spaces, ".", "-" and "&", and must start with a letter or digit.';
  }
  if (text.length > charLimit) return `stitchText is ${text.length} characters; the limit is ${charLimit}.`;
  return null;
}

/** The characters of a stitch text that the pattern refuses, each once, in order of appearance. */
export function refusedCharacters(text) {
  return [...new Set([...text].filter((c) => !/[A-Za-z0-9 .\-&]/u.test(c)))];
}

const EMAIL_MAX_LENGTH = 254;
const EMAIL_FORBIDDEN = /[\s"'(),:;<>[\]\\]/u;
const EMAIL_INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const EMAIL_ADDRESS = /^[^@]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/u;

export function emailProblem(email) {
  const trimmed = email.trim();
  if (trimmed.length === 0) return 'Email is empty.';
  if (trimmed.length > EMAIL_MAX_LENGTH) return `Email is longer than ${EMAIL_MAX_LENGTH} characters.`;
  if (EMAIL_FORBIDDEN.test(trimmed)) return 'Email may not contain spaces, quotes, commas or brackets.';
  if (EMAIL_INVISIBLE.test(trimmed)) return 'Email may not contain control or invisible characters.';
  if (!EMAIL_ADDRESS.test(trimmed)) return 'Email must be one ordinary address, like name@example.com.';
  const local = trimmed.slice(0, trimmed.indexOf('@'));
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return 'Email must be one ordinary address, like name@example.com.';
  }
  return null;
}

const NAME_MAX_LENGTH = 40;
const NAME_MAX_WORDS = 5;
const NAME_ALLOWED = /^[\p{L}\p{M} '’.-]+$/u;
const NAME_LINK = /:\/\/|www\.|[\p{L}\p{N}-]\.(?:[a-z]{2,})(?:$|[\s/])/iu;

function words(name) {
  return name.trim().split(/ +/u).filter(Boolean);
}

export function nameProblem(name) {
  const trimmed = name.trim().replace(/ +/gu, ' ');
  if (trimmed.length === 0) return 'Name is empty.';
  // As the server counts: the stored form (trimmed, one space between words), in characters, not UTF-16 units.
  if ([...trimmed].length > NAME_MAX_LENGTH) return `Name is longer than ${NAME_MAX_LENGTH} characters.`;
  if (NAME_LINK.test(trimmed)) return 'Name may not contain a link or web address.';
  if (!NAME_ALLOWED.test(trimmed)) return 'Name may contain only letters, spaces, apostrophes, hyphens and full stops.';
  if (!/\p{L}/u.test(trimmed)) return 'Name must contain letters.';
  const count = words(trimmed).length;
  if (count < 2) return 'Give a first and last name; they are checked at pickup.';
  if (count > NAME_MAX_WORDS) return `Name has more than ${NAME_MAX_WORDS} words.`;
  return null;
}

/** docs/ordering.md#collecting-an-order: case, accents, extra spaces and apostrophes, hyphens, full stops ignored. */
function comparableName(name) {
  return words(name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’.-]/gu, '')).join(' ');
}

/** Each word run from the start or back from the end, joined, with its length in words. */
function joinedRuns(parts, from) {
  const runs = new Map();
  for (let length = 1; length < parts.length; length++) {
    const run = from === 'start' ? parts.slice(0, length) : parts.slice(parts.length - length);
    if (!runs.has(run.join(''))) runs.set(run.join(''), length);
  }
  return runs;
}

/** The pickup check of docs/ordering.md#collecting-an-order, as the server makes it (src/orders/person-name.ts). */
export function collectorMatches(orderName, collectorName) {
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

/** "ADA 1815" → ["A", "D", "A", "space", "1", "8", "1", "5"]: embroidery is permanent, so every character is read back. */
export function spelledParts(text) {
  return [...text].map((c) => (c === ' ' ? 'space' : c));
}

/** "ADA 1815" → "A · D · A · space · 1 · 8 · 1 · 5". */
export function spell(text) {
  return spelledParts(text).join(' · ');
}
