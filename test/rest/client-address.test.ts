/**
 * The client address the limits are kept by (docs/edge.md#client-address, issue 15): the socket's peer unless
 * TRUST_PROXY says which proxies to believe, and then X-Forwarded-For as Express's `trust proxy` reads it. Over the
 * production node:http entry (the peer is 127.0.0.1) and, for GraphQL, its fast JSON path too.
 */
import { createClient, type Client } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { limitedAddress } from '../../src/kernel/client-address.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, type TransportGateway } from '../support/graphql-transports.ts';

const LIMITS = { RATE_LIMIT_WRITE: '2' };

async function create(t: TransportGateway, i: number, forwardedFor?: string): Promise<number> {
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor, 'x-real-ip': forwardedFor, forwarded: `for=${forwardedFor}` };
  return (await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: `c${i}@example.com` }, headers)).status;
}

async function createGql(t: TransportGateway, i: number, forwardedFor: string): Promise<number> {
  const response = await t.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ query: 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }', variables: { i: { ...VALID_ORDER, email: `g${i}@example.com` } } }),
  });
  return response.status;
}

/** A graphql-ws client whose upgrade request carries X-Forwarded-For, as a proxy in front would send it. */
function wsClientFrom(t: TransportGateway, forwardedFor: string): Client {
  class ForwardedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { 'x-forwarded-for': forwardedFor } });
    }
  }
  const client = createClient({ url: `${t.server!.url.replace('http', 'ws')}/graphql`, webSocketImpl: ForwardedWebSocket, retryAttempts: 0 });
  afterThisTest(async () => client.dispose());
  return client;
}

/** createOrder over the socket: 'ok', or the error's code (RATE_LIMITED when over the limit). */
async function createWs(client: Client, i: number): Promise<string> {
  const result = await new Promise<{ errors?: Array<{ extensions?: { code?: string } }> }>((resolve, reject) => {
    client.subscribe(
      { query: 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }', variables: { i: { ...VALID_ORDER, email: `w${i}@example.com` } } },
      { next: (value) => resolve(value as never), error: reject, complete: () => {} },
    );
  });
  return result.errors?.[0]?.extensions?.code ?? 'ok';
}

describe('TRUST_PROXY unset (the default)', () => {
  it('ignores X-Forwarded-For, X-Real-IP and Forwarded: a client cannot pick a new bucket per request', async () => {
    const t = await gatewayOver('node', { env: LIMITS });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await create(t, i, `198.51.100.${i}`));
    expect(statuses).toEqual([201, 201, 429, 429]);
    for (let i = 0; i < 2; i++) expect(await createGql(t, i, `198.51.100.${50 + i}`)).toBe(429);
  });
});

describe('TRUST_PROXY set', () => {
  it('loopback: each address a trusted proxy forwards is its own client, over REST and GraphQL', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
    for (let i = 0; i < 4; i++) expect(await create(t, i, `198.51.100.${i}`)).toBe(201);
    // Twice per address over GraphQL (the second runs the fast JSON path), then that address is over its limit.
    for (let i = 0; i < 2; i++) expect(await createGql(t, i, '198.51.100.77')).toBe(200);
    expect(await createGql(t, 2, '198.51.100.77')).toBe(429);
    // One forwarded client is limited on its own.
    expect(await create(t, 10, '198.51.100.0')).toBe(201);
    expect(await create(t, 11, '198.51.100.0')).toBe(429);
  });

  it('loopback over WebSocket: the upgrade request names the client, for every operation on that socket', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
    const first = wsClientFrom(t, '198.51.100.21');
    expect([await createWs(first, 0), await createWs(first, 1), await createWs(first, 2)]).toEqual(['ok', 'ok', 'RATE_LIMITED']);
    // Another socket from the same forwarded client shares its bucket; one from another client has its own.
    expect(await createWs(wsClientFrom(t, '198.51.100.21'), 3)).toBe('RATE_LIMITED');
    const second = wsClientFrom(t, '198.51.100.22');
    expect([await createWs(second, 4), await createWs(second, 5)]).toEqual(['ok', 'ok']);
  });

  it('refuses spoofing: addresses a client prepends to X-Forwarded-For are not believed', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: '127.0.0.1' } });
    // The proxy (127.0.0.1) appended the real client 203.0.113.9; the client wrote the rest itself.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await create(t, i, `10.9.9.${i}, 203.0.113.9`));
    expect(statuses).toEqual([201, 201, 429, 429]);
  });

  it('a hop count: trusts that many proxies nearest the server', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: '1' } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await create(t, i, `10.9.9.${i}, 203.0.113.9`));
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(await create(t, 5, '203.0.113.10')).toBe(201);
  });

  it('is read by the in-memory gateway too, over its clientAddress option', async () => {
    const t = await gatewayOver('fetch', { env: { ...LIMITS, TRUST_PROXY: '10.0.0.0/8' }, clientAddress: () => '10.1.2.3' });
    for (let i = 0; i < 4; i++) expect(await create(t, i, `198.51.100.${i}`)).toBe(201);
  });
});

describe('IPv6 clients (docs/edge.md#client-address)', () => {
  it('are counted by their /56 (RATE_LIMIT_IPV6_PREFIX): a new address per request is no new bucket, over REST and GraphQL', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
    // Four addresses of one /56 (2001:db8:1:0000::/56 holds 2001:db8:1:1:: to 2001:db8:1:ff::), one client.
    const statuses = [];
    for (const [i, address] of ['2001:db8:1:1::a', '2001:db8:1:2::b', '2001:db8:1:ff:1:2:3:4', '2001:db8:1:1::d'].entries()) statuses.push(await create(t, i, address));
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(await createGql(t, 0, '2001:db8:1:7::e')).toBe(429);
    // The next /56 is another subscriber.
    expect(await create(t, 10, '2001:db8:1:100::a')).toBe(201);
  });

  it('an IPv4-mapped IPv6 address is the IPv4 client it maps', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
    expect([await create(t, 0, '::ffff:198.51.100.7'), await create(t, 1, '198.51.100.7'), await create(t, 2, '::ffff:198.51.100.7')]).toEqual([201, 201, 429]);
    expect(await create(t, 3, '::ffff:198.51.100.8')).toBe(201);
  });

  it('RATE_LIMIT_IPV6_PREFIX=128 counts each IPv6 address alone', async () => {
    const t = await gatewayOver('node', { env: { ...LIMITS, TRUST_PROXY: 'loopback', RATE_LIMIT_IPV6_PREFIX: '128' } });
    for (let i = 0; i < 4; i++) expect(await create(t, i, `2001:db8:1:1::${i + 1}`)).toBe(201);
    expect([await create(t, 4, '2001:db8:1:1::1'), await create(t, 5, '2001:db8:1:1:0:0:0:1')]).toEqual([201, 429]);
  });
});

describe('limitedAddress', () => {
  it('cuts each address to its prefix, the same past its cache of cut addresses, and leaves what is no address', () => {
    const seen = Array.from({ length: 5000 }, (_, i) => limitedAddress(`2001:db8:${i.toString(16)}:ab::${i.toString(16)}`, 48));
    expect(seen.slice(0, 3)).toEqual(['2001:db8:0:0:0:0:0:0/48', '2001:db8:1:0:0:0:0:0/48', '2001:db8:2:0:0:0:0:0/48']);
    expect(limitedAddress('2001:db8:0:ab::0', 48)).toBe(seen[0]);
    expect(limitedAddress('2001:db8:0:ab::0', 64)).toBe('2001:db8:0:ab:0:0:0:0/64');
    expect(limitedAddress('2001:db8:0:ab::0', 128)).toBe('2001:db8:0:ab:0:0:0:0');
    expect([limitedAddress('::ffff:198.51.100.7', 56), limitedAddress('::ffff:c633:6407', 56), limitedAddress('198.51.100.7', 56)]).toEqual(['198.51.100.7', '198.51.100.7', '198.51.100.7']);
    expect([limitedAddress('unknown', 56), limitedAddress('2001:db8::zz', 56)]).toEqual(['unknown', '2001:db8::zz']);
  });
});
