/**
 * Where merchants' own endpoints may be (docs/merchant-webhooks.md#where-endpoints-may-be): on the public internet,
 * and in the networks ENDPOINT_ALLOWED_NETWORKS lists. Any site may register a URL, and every attempt's status and
 * answer excerpt are shown to it, so without this a merchant could make the gateway POST to its own host
 * (127.0.0.1: the gateway, its database, Redis), to the venue's network or to a cloud's metadata service
 * (169.254.169.254), and read what answered: server-side request forgery.
 *
 * The rule, with no I/O: an address is refused unless ipaddr.js (proxy-addr's parser) ranks it `unicast`, the
 * public ranges, or the list holds it. A URL naming a refused address, or this machine by name, is refused when it is
 * given (422); a name is checked at each connection (endpoint-connection-client.ts).
 */
import ipaddr from 'ipaddr.js';
import { compileNetworks } from '../kernel/client-address.ts';

/** The range of `address` (an IP address) for which a connection to it is refused (`loopback`), or null when it may be made. */
export type AddressPolicy = (address: string) => string | null;

/** Why an address the merchant gave is refused, after "must be on the public internet: ". */
export const refusedAddress = (address: string, range: string): string => `${address} is in the ${range} range`;

export function addressPolicy(allowedNetworks: string | null): AddressPolicy {
  const allowed = allowedNetworks === null ? null : compileNetworks(allowedNetworks);
  const decided = new Map<string, string | null>();
  return (address) => {
    let refusal = decided.get(address);
    if (refusal === undefined) {
      refusal = decide(address, allowed);
      if (decided.size >= 4096) decided.clear(); // a few addresses in practice: kept, as a connection asks each time
      decided.set(address, refusal);
    }
    return refusal;
  };
}

/**
 * Ranges ipaddr.js ranks `unicast` that IANA's special-purpose registries mark not globally reachable: a network
 * may route them inside (a lab's 198.18.0.0/15), and `::a.b.c.d` names an IPv4 address (::127.0.0.1).
 */
const NOT_PUBLIC: ReadonlyArray<readonly [string, ReturnType<typeof ipaddr.parseCIDR>]> = [
  ['benchmarking', '198.18.0.0/15'],
  ['IPv4-compatible', '::/96'],
  ['discard-only', '100::/64'],
  ['benchmarking', '2001:2::/48'],
  ['ORCHID', '2001:10::/28'],
  ['local-use NAT64', '64:ff9b:1::/48'],
  ['documentation', '3fff::/20'],
  ['segment routing', '5f00::/16'],
  // Deprecated (RFC 3879), so no longer in the registry, but still routed inside some networks.
  ['site-local', 'fec0::/10'],
].map(([name, cidr]) => [name!, ipaddr.parseCIDR(cidr!)] as const);

function specialRange(parsed: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = parsed.range();
  if (range !== 'unicast') return range;
  return NOT_PUBLIC.find(([, cidr]) => cidr[0].kind() === parsed.kind() && (parsed as ipaddr.IPv6).match(cidr as [ipaddr.IPv6, number]))?.[0] ?? range;
}

function decide(address: string, allowed: ((address: string) => boolean) | null): string | null {
  if (!ipaddr.isValid(address)) return 'unparsable';
  const parsed = ipaddr.process(address);
  const range = specialRange(parsed);
  // The setting that would allow it is the operator's, named in docs/merchant-webhooks.md.
  return range === 'unicast' || allowed?.(parsed.toString()) ? null : range;
}

/** A URL's host as net.connect takes it: an IPv6 address without its brackets. */
export const hostOf = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/** Why `url` may not be an endpoint when its host is an address or a name of this host; null otherwise (no lookup). */
export function literalRefusal(url: URL, policy: AddressPolicy): string | null {
  const host = hostOf(url.hostname);
  // The URL parser has already written any IPv4 form (2130706433, 0x7f.1) as four decimal octets.
  if (ipaddr.isValid(host)) {
    const range = policy(host);
    return range && refusedAddress(host, range);
  }
  // Names that never leave this machine (RFC 6761, with or without the root's dot), refused as its loopback address is.
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return policy('127.0.0.1') && `${host} is this machine`;
  return null;
}
