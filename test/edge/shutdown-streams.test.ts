/**
 * docs/edge.md#shutdown-of-streams: on SIGTERM an SSE response is ended cleanly (the end of the response, not a
 * destroyed socket) but without its operation's `complete`, which would tell the client the subscription is over
 * for good; and with SSE and WebSocket clients open the process exits 0 within 3 s (issue 15: one open SSE stream
 * held SIGTERM for 10 s and was then destroyed).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const BOARD = 'subscription { pickupBoard { change board { orderNumber } } }';

/** Opens an SSE stream of `query`; `text()` is everything received so far, `ended` resolves when the response ends. */
async function openSse(url: string, query: string) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  let received = '';
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended' as const;
      received += decoder.decode(value, { stream: true });
    }
  })().catch((error: unknown) => `failed: ${String(error)}` as const);
  return { text: () => received, ended };
}

describe('SIGTERM with streams open', () => {
  it('ends every SSE response without `complete`, closes WebSockets with 1001, and exits 0 within 3 s', async () => {
    const server = await startProcess({ DATABASE_URL: `file:${join(tempDir(), 'streams.db')}` });
    const streams = [await openSse(server.url, BOARD), await openSse(server.url, BOARD)];
    await expect.poll(() => streams.every((s) => s.text().includes('"change":"SNAPSHOT"'))).toBe(true);

    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const wsClosed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise((resolve) => socket.once('message', resolve)); // connection_ack
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: BOARD } }));
    expect(String(await new Promise((resolve) => socket.once('message', resolve)))).toContain('SNAPSHOT');

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    for (const stream of streams) {
      expect(await stream.ended).toBe('ended');
      expect(stream.text()).toContain('"change":"SNAPSHOT"');
      expect(stream.text()).not.toContain('event: complete');
    }
    expect(await wsClosed).toBe(1001);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3_000);
  });
});
