/** Card-number arithmetic that needs no I/O. */

/** The Luhn (mod 10) check every card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/u.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// 12 to 19 digits, optionally grouped by spaces or hyphens: the shape of a card number. A UUID is matched first and
// left alone: its all-digit groups joined by hyphens can form such a run (pay_da124634-2366-4510-8416-…), and about
// one id in a thousand would otherwise lose its middle to the scrubber.
const CARD_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b(?:\d[ -]?){11,18}\d\b/giu;
const UUID = /^[0-9a-f]{8}-/iu;
// What every CARD_LIKE number contains: a line without it (almost every line) skips the slow scan above.
const DIGIT_RUN = /(?:\d[ -]?){11}\d/u;

/**
 * Replaces every Luhn-valid run of 12 to 19 digits (a possible card number); timestamps mostly survive, ids all do.
 * Used on every log line, and on the free-form bodies kept as audit records, so a card number typed into a field
 * that was never meant for one is not stored in the clear.
 */
export function scrub(text: string): string {
  if (!DIGIT_RUN.test(text)) return text;
  return text.replace(CARD_LIKE, (run) => (!UUID.test(run) && luhnValid(run.replace(/[ -]/gu, '')) ? '[redacted-number]' : run));
}

/**
 * A JSON value with every string scrubbed: the audit copy of a request body. Strings only — a number field such as
 * an event time in milliseconds may pass Luhn's test, and is no card number typed into a free-text field.
 */
export function scrubStrings(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map(scrubStrings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, scrubStrings(member)]));
}
