/**
 * How a JSON body may arrive (docs/edge.md#no-cross-site-writes): a UTF-8 byte order mark before it is read past, as
 * RFC 8259 §8.1 allows a parser to do (Windows tools write one), and a compressed body (`content-encoding: gzip`),
 * which the gateway does not decode, is refused 415 by name in each door's error shape — not answered "not valid
 * JSON", which sent a client looking for a mistake in JSON it had written correctly.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe.each(TRANSPORTS)('over %s', (transport) => {
  it('reads a JSON body that starts with a UTF-8 byte order mark', async () => {
    const t = await gatewayOver(transport);
    const res = await t.request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat([BOM, json(VALID_ORDER)]),
    });
    expect(res.status).toBe(201);
    expect(await t.createOrder({ email: 'other@example.com' })).toMatchObject({ orderNumber: expect.any(String) });
  });

  it('refuses a gzip body 415 naming the encoding, in document 1\'s shape and the platform\'s, storing nothing', async () => {
    const t = await gatewayOver(transport);
    const ordering = await t.request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(json(VALID_ORDER)),
    });
    expect(ordering.status).toBe(415);
    expect(await ordering.json()).toEqual({ ok: false, code: 'bad_request', error: expect.stringMatching(/content-encoding gzip.*uncompressed/u), retryable: false });

    const platform = await t.request('/v2/accounts/profile-access/evt-gz', {
      method: 'POST',
      headers: { ...platformHeaders(t), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(json(profileAccess())),
    });
    expect(platform.status).toBe(415);
    expect(await platform.json()).toEqual({ status: 'error', message: expect.stringMatching(/content-encoding gzip/u) });

    // `identity` is no encoding at all.
    const plain = await t.request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: json(VALID_ORDER),
    });
    expect(plain.status).toBe(201);
  });
});
