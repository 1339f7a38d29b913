/**
 * One text for one JSON value, whatever order its object keys were written in: how a repeated request is told from
 * a different one under the same key (an `Idempotency-Key` on /api/payments, an event id on the decision paths).
 * Members whose value is `undefined` are left out, as JSON.stringify leaves them out.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
