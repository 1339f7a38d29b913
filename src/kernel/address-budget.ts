/**
 * How much one client address may hold open at once (docs/edge.md#bounds): connections (graphql-ws sockets, SSE
 * streams, MCP sessions' standalone streams) and running subscriptions, across all of them. Rate limits count how often operations start, and the
 * bound of 100 operations per connection (operation-bounds.ts) holds per connection only: an outside security review
 * opened 1,000 sockets × 100 `pickupBoard` subscriptions from one address, with no credential, and a plain
 * `GET /api/sleeve-options` waited 83 s (RSS 223 MB → 975 MB); 300 × 100 stalled the event loop for about 10 s.
 *
 * The bounds must fit a venue, whose attendees share one public address: 2,000 of them, each page holding one socket
 * and up to three subscriptions, are 2,000 connections and 6,000 streams. Counted in this process (each instance
 * protects itself; behind a proxy, several instances each allow their own), per address as the rate limits count it
 * (an IPv6 client by its prefix, client-address.ts). A count that reaches zero is forgotten, so the map holds only
 * the addresses that have something open.
 */
import { limitedAddress } from './client-address.ts';

export interface AddressBounds {
  /** MAX_CONNECTIONS_PER_ADDRESS: graphql-ws sockets, SSE streams and MCP standalone streams open at once. */
  connections: number;
  /** MAX_STREAMS_PER_ADDRESS: subscriptions running at once, over every transport. */
  streams: number;
  /** RATE_LIMIT_IPV6_PREFIX: an IPv6 client is counted by this many leading bits. @default 56 */
  ipv6Prefix?: number;
}

/** Generous enough for any venue's NAT, far below what stalls a process; the README's configuration table says so. */
export const DEFAULT_ADDRESS_BOUNDS: AddressBounds = { connections: 4000, streams: 8000 };
const DEFAULT_IPV6_PREFIX = 56;

/** How long a refused client is told to wait (Retry-After): something of its own may close by then. */
export const ADDRESS_RETRY_AFTER_SECONDS = 10;

export class AddressBudget {
  private readonly open = new Map<string, number>();

  constructor(
    /** The most one address may hold at once. */
    readonly limit: number,
    private readonly ipv6Prefix = DEFAULT_IPV6_PREFIX,
  ) {}

  /** Takes one place for `address`; false (nothing taken) when it holds `limit` already. */
  take(address: string): boolean {
    const key = limitedAddress(address, this.ipv6Prefix);
    const held = this.open.get(key) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(key, held + 1);
    return true;
  }

  /** Gives back one place `take` gave `address`. */
  give(address: string): void {
    const key = limitedAddress(address, this.ipv6Prefix);
    const held = (this.open.get(key) ?? 0) - 1;
    if (held > 0) this.open.set(key, held);
    else this.open.delete(key);
  }

  /**
   * Takes one place for `address` for as long as `open` is (its `close` gives it back); false (nothing taken) when
   * the address holds `limit` already. A response, a socket: what each door holds open.
   */
  holdWhileOpen(address: string, open: { once(event: 'close', listener: () => void): unknown }): boolean {
    if (!this.take(address)) return false;
    open.once('close', () => this.give(address));
    return true;
  }

  /** Whether `address` holds `limit` already: a refusal decided before any work (ws-transport.ts). */
  full(address: string): boolean {
    return (this.open.get(limitedAddress(address, this.ipv6Prefix)) ?? 0) >= this.limit;
  }

  /** What `address` holds now (tests, metrics). */
  held(address: string): number {
    return this.open.get(limitedAddress(address, this.ipv6Prefix)) ?? 0;
  }
}

export const tooManyConnections = (limit: number) =>
  `Too many connections are open from your address (at most ${limit} at once). Close one, or try again in ${ADDRESS_RETRY_AFTER_SECONDS} seconds.`;

export const tooManyStreams = (limit: number) =>
  `Too many subscriptions are running from your address (at most ${limit} at once). End one before starting another.`;
