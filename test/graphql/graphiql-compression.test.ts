/**
 * GraphiQL's page (about 9 MB, every asset inside it) goes gzipped to a browser that accepts gzip, byte for byte the
 * page once unzipped, with the same Content-Security-Policy (its script hash is of the page itself); a client that
 * does not accept gzip gets it as it is. Read over a raw socket: fetch would unzip it unseen.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../graphql-server/graphiql-page.ts';
import { liveServer } from '../support/live-server.ts';

function get(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('GraphiQL over the wire', () => {
  it('is sent gzipped to a browser that accepts gzip, the same page once unzipped', { timeout: 30_000 }, async () => {
    const { server } = await liveServer();
    const url = `http://127.0.0.1:${server.port}/graphql`;
    const plain = await get(url, { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    const zipped = await get(url, { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(String(zipped.headers.vary)).toContain('Accept-Encoding');
    const refused = await get(url, { accept: 'text/html', 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it.each([
    ['gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['*', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['', false],
  ])('reads Accept-Encoding %j as accepting gzip: %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});
