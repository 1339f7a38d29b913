/**
 * The ports tests hand to the servers they start (test/support/ports.ts): distinct within one call, and free once
 * it returns. nginx's plain and TLS blocks once got the same port from two calls in a row and nginx refused to start.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from '../support/ports.ts';

describe('free ports for test servers', () => {
  it('are distinct within one call, and each can be listened on afterwards', async () => {
    const ports = await freePorts(40);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    for (const port of ports.slice(0, 5)) {
      const server = createServer();
      await new Promise<void>((listening, failed) => {
        server.once('error', failed);
        server.listen(port, '127.0.0.1', listening);
      });
      await new Promise((closed) => server.close(closed));
    }
  });
});
