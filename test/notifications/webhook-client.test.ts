/**
 * One delivery on the wire (src/notifications/webhook-client.ts `deliver`), against a real node:http receiver: the
 * body's bytes exactly as given, whatever its characters, with a Content-Length that counts bytes, not characters,
 * and the gateway's User-Agent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/kernel/clock.ts';
import { deliver } from '../../src/notifications/webhook-client.ts';

describe('a delivery on the wire', () => {
  const received: Array<{ headers: IncomingHttpHeaders; bytes: Buffer }> = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, bytes: Buffer.concat(chunks) });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token-updated`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['plain ASCII', '{"token":"tok_123","last4":"4242"}'],
    ['two-byte, three-byte and four-byte characters', '{"name":"Zoë Ångström","note":"刺繍","mark":"🧵"}'],
  ])('sends %s byte for byte, with their length in bytes', async (_, body) => {
    const signal = new AbortController().signal;
    const result = await deliver({ url, headers: { 'webhook-id': 'msg_1' }, body }, { clock: systemClock, signal });
    expect(result).toMatchObject({ statusCode: 200, excerpt: '{"ok":true}', error: null, interrupted: false });
    const { headers, bytes } = received.at(-1)!;
    expect(bytes.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body, 'utf8')));
    expect(headers['content-type']).toBe('application/json');
    // A request without one is blocked or challenged by many WAFs and CDNs in front of receivers.
    expect(headers['user-agent']).toBe('Sleeve-Gateway-Webhooks/1');
    expect(headers['webhook-id']).toBe('msg_1');
  });
});
