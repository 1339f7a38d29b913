/**
 * The words for a body field that is missing or of the wrong type, shared by every door that checks JSON by hand.
 * "is required" only when the field is absent (or null, which JSON clients send for "not set"); a value that is there
 * but wrong says what kind of value came instead, so "cardNumber is required" never answers a card number sent as a
 * number. The value itself is not repeated unless the caller says it is safe to: a card number, a CVC or a token
 * sent in the wrong type must not come back in an error a client, a proxy or a log may keep.
 */

/** What kind of value `value` is, in words: "a string", "an array", "the number 10.5" (numbers only when `repeat`). */
export function sentKind(value: unknown, repeat = false): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return repeat ? `the number ${value}` : 'a number';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}

/** "is required: EXPECTED" or "must be EXPECTED; it was KIND", without the field's name (for `{field, message}`). */
export function problemOf(value: unknown, expected: string, options: { repeatNumbers?: boolean } = {}): string {
  if (value === undefined || value === null) return `is required: ${expected}`;
  return `must be ${expected}; it was ${sentKind(value, options.repeatNumbers)}`;
}

/** The whole sentence, naming the field: "amount must be a positive whole number …; it was a string." */
export function fieldProblem(field: string, value: unknown, expected: string, options: { repeatNumbers?: boolean } = {}): string {
  return `${field} ${problemOf(value, expected, options)}.`;
}
