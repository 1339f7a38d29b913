/**
 * The client address every rate limit is kept by (docs/edge.md#client-address). TRUST_PROXY unset: the socket's
 * peer, and X-Forwarded-For, X-Real-IP and Forwarded are never read (anyone can send them). Set: X-Forwarded-For read
 * by proxy-addr, the library behind Express's `trust proxy`, with Express's own reading of the setting — a hop count
 * trusts that many hops nearest the server, anything else is a comma-separated list of addresses, CIDRs and the
 * names loopback, linklocal and uniquelocal.
 */
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

export type TrustFn = (address: string, hop: number) => boolean;

/** Express's compileTrust for a string setting; throws on an address or CIDR proxy-addr cannot read. */
export function compileTrust(raw: string): TrustFn {
  const value = raw.trim();
  if (/^\d+$/u.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return compileNetworks(value);
}

/**
 * A comma-separated list of addresses, CIDRs and the names loopback, linklocal and uniquelocal, read by proxy-addr
 * (each family matched against its own entries): whether an address is in one of them. Throws on what it cannot read.
 */
export function compileNetworks(raw: string): (address: string) => boolean {
  const list = raw.split(',').map((part) => part.trim());
  if (list.some((part) => part === '')) throw new Error('an empty entry');
  // proxy-addr would read `1` as the address 0.0.0.1; in a list it is a mistake (a hop count is a whole value).
  const number = list.find((part) => /^\d+$/u.test(part));
  if (number !== undefined) throw new Error(`${number} is a number, not an address`);
  const inList = proxyAddr.compile(list);
  return (address) => inList(address, 0);
}

/** What proxy-addr reads of a request: its headers and its socket's peer. */
interface Peer {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/** Reads the client address of node requests (and of in-memory ones, given their peer and headers). */
export class ClientAddresses {
  private readonly trust: TrustFn | null;

  constructor(trustProxy: string | null) {
    this.trust = trustProxy === null ? null : compileTrust(trustProxy);
  }

  /** The client address of a request whose socket peer is `peer`. */
  of(req: Peer): string {
    const peer = req.socket.remoteAddress ?? 'unknown';
    if (this.trust === null || req.headers['x-forwarded-for'] === undefined) return peer;
    return proxyAddr(req as never, this.trust);
  }

  /** An in-memory request: `peer` stands for the socket's peer (the gateway's clientAddress option). */
  ofFetch(request: Request, peer: string): string {
    if (this.trust === null) return peer;
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded === null) return peer;
    return proxyAddr({ headers: { 'x-forwarded-for': forwarded }, socket: { remoteAddress: peer }, connection: { remoteAddress: peer } } as never, this.trust);
  }
}

/**
 * What a limit counts of a client address (docs/edge.md#rate-limits-at-a-venue): an IPv4 address whole (an
 * IPv4-mapped IPv6 one as the IPv4 address it is), an IPv6 address by its first `ipv6Prefix` bits. One subscriber is
 * given a whole IPv6 prefix (a /64 at the least, commonly a /56 or a /48) and may use any address in it, so a limit
 * per IPv6 address is no limit: a script would take a new address per request, and each would be a new count.
 * Anything else (no address known) is counted as it is.
 */
export function limitedAddress(address: string, ipv6Prefix: number): string {
  if (!address.includes(':')) return address;
  // A server listening on `::` sees every IPv4 client so: its address without a parse (3.9 µs a request otherwise).
  if (address.startsWith('::ffff:') && address.indexOf(':', 7) === -1 && address.includes('.')) return address.slice(7);
  const key = `${ipv6Prefix} ${address}`;
  let limited = cutAddresses.get(key);
  if (limited === undefined) {
    limited = cutPrefix(address, ipv6Prefix);
    if (cutAddresses.size >= CUT_ADDRESSES_KEPT) cutAddresses.clear();
    cutAddresses.set(key, limited);
  }
  return limited;
}

/** IPv6 addresses already cut (a parse costs about 3 µs): the last few thousand, forgotten all at once when full. */
const cutAddresses = new Map<string, string>();
const CUT_ADDRESSES_KEPT = 4096;

function cutPrefix(address: string, ipv6Prefix: number): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  if (ipv6Prefix >= 128) return parsed.toNormalizedString();
  const parts = (parsed as ipaddr.IPv6).parts.map((part, i) => {
    const kept = Math.min(16, Math.max(0, ipv6Prefix - 16 * i));
    return kept === 0 ? 0 : part & (0xffff << (16 - kept));
  });
  return `${new ipaddr.IPv6(parts).toNormalizedString()}/${ipv6Prefix}`;
}
