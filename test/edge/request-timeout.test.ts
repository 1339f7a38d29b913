/**
 * docs/edge.md#bounds: a connection that has not sent its whole request within REQUEST_TIMEOUT_SECONDS is closed
 * (issue 15: 2,000 slow-loris connections were held for 100 s).
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { startServer } from '../../src/server.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';

/** Resolves with the milliseconds until the server closes `socket`, and what it answered before closing. */
function closedAfter(socket: Socket): Promise<{ ms: number; answer: string }> {
  const started = Date.now();
  let answer = '';
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ ms: Date.now() - started, answer }));
  });
}

describe('REQUEST_TIMEOUT_SECONDS', () => {
  it('defaults to 30 and is read from the environment', () => {
    expect(loadConfig({}).config.requestTimeoutSeconds).toBe(30);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '2' }).config.requestTimeoutSeconds).toBe(2);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/REQUEST_TIMEOUT_SECONDS/u);
  });

  it('closes a connection whose headers are still arriving, and one whose body is', async () => {
    const t = await testGateway({ env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    afterThisTest(() => server.close(1_000));

    const headers = connect(server.port, '127.0.0.1');
    const headersClosed = closedAfter(headers);
    headers.write('GET /api/sleeve-options HTTP/1.1\r\nHost: x\r\n'); // and never the blank line
    const drip = setInterval(() => headers.write('X-Slow: 1\r\n'), 200); // a slow-loris keeps sending bytes
    afterThisTest(async () => clearInterval(drip));

    const body = connect(server.port, '127.0.0.1');
    const bodyClosed = closedAfter(body);
    body.write('POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"');

    const [h, b] = await Promise.all([headersClosed, bodyClosed]);
    expect(h.ms).toBeLessThan(3_500);
    expect(b.ms).toBeLessThan(3_500);
    expect(b.answer).toMatch(/^HTTP\/1\.1 408/u);
    // A normal request on a fresh connection is unaffected.
    expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
  });
});
