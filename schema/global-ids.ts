/**
 * Global object ids (docs/graphql.md#object-identity): one `id: ID!` per object, unique across every type and
 * stable for the object's life, so Apollo's and Relay's caches normalise without type policies.
 *
 * Two forms, never confused (the first holds `_`, which standard base64 never does):
 *  - a record whose own id is already a random id with a prefix that names its kind keeps it: payments (`pay_…`),
 *    notifications (`msg_…`, also their webhook-id) and merchants (`site_…`, their site id). Clients and the staff
 *    console already hold these values; they stay what they were.
 *  - every other object: base64 of `Typename:key`, the graphql-relay convention (what Pothos writes by default).
 *    A key of several parts is a JSON array. A key is what names the record (an order number, a claim id, a site
 *    and an account id), never a credential: no payToken, vault token or API key is ever part of one.
 *
 * Decoding is strict (the base64 must be the canonical encoding of what it decodes to), so a made-up string is
 * told apart from an id this API gave out.
 */

/** The prefix of each kind of record whose own id is its global id. */
const OWN_PREFIXES: Readonly<Record<string, string>> = { Payment: 'pay_', Notification: 'msg_', Merchant: 'site_' };

const TYPENAME = /^[A-Z][A-Za-z0-9]*$/u;

export interface DecodedId {
  typename: string;
  /** The key, as the type's identity reads it (schema/types/nodes.ts). */
  id: string;
}

export function encodeGlobalId(typename: string, key: bigint | number | string): string {
  const raw = String(key);
  const prefix = OWN_PREFIXES[typename];
  if (prefix && raw.startsWith(prefix)) return raw;
  return Buffer.from(`${typename}:${raw}`, 'utf8').toString('base64');
}

/** The typename and key of an id this API gave out; null for anything else. */
export function decodeGlobalId(id: string): DecodedId | null {
  for (const [typename, prefix] of Object.entries(OWN_PREFIXES)) {
    if (id.startsWith(prefix)) return id.length > prefix.length ? { typename, id } : null;
  }
  const text = Buffer.from(id, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1 || Buffer.from(text, 'utf8').toString('base64') !== id) return null;
  const typename = text.slice(0, colon);
  return TYPENAME.test(typename) && colon < text.length - 1 ? { typename, id: text.slice(colon + 1) } : null;
}

/** The key of several parts, as a JSON array of strings (Account: site and account id). */
export const compoundKey = (...parts: string[]): string => JSON.stringify(parts);

/** The parts of a compound key of exactly `count` strings; null when it is not one. */
export function keyParts(key: string, count: number): string[] | null {
  try {
    const parts: unknown = JSON.parse(key);
    return Array.isArray(parts) && parts.length === count && parts.every((p) => typeof p === 'string' && p.length > 0) ? (parts as string[]) : null;
  } catch {
    return null;
  }
}
