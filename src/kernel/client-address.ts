/**
 * The client address every rate limit is kept by (docs/edge.md#client-address). TRUST_PROXY unset: the socket's
 * peer, and X-Forwarded-For, X-Real-IP and Forwarded are never read (anyone can send them). Set: X-Forwarded-For read
 * by proxy-addr, the library behind Express's `trust proxy`, with Express's own reading of the setting — a hop count
 * trusts that many hops nearest the server, anything else is a comma-separated list of addresses, CIDRs and the
 * names loopback, linklocal and uniquelocal.
 */
import proxyAddr from 'proxy-addr';

export type TrustFn = (address: string, hop: number) => boolean;

/** Express's compileTrust for a string setting; throws on an address or CIDR proxy-addr cannot read. */
export function compileTrust(raw: string): TrustFn {
  const value = raw.trim();
  if (/^\d+$/u.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => part === '')) throw new Error('an empty entry');
  return proxyAddr.compile(list);
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
