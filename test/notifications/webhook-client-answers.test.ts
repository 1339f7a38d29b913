/**
 * What an attempt records of a receiver's answer (src/notifications/webhook-client.ts `deliver`), against real
 * node:http receivers on 127.0.0.1. The status counts from the moment the answer's head arrives, whatever its body
 * does after it ("Any 2xx answer is success", docs/notifications.md#delivery-and-retries): a 200 whose body trickles
 * past the timeout is not "no answer" and retried as a duplicate, and an endless body is read only as far as the
 * excerpt needs. A redirect, never followed, records where it pointed. Time is a manual clock, moved only once the
 * client has read what the receiver wrote, so no test waits 10 s or depends on how fast anything is.
 */
import { Agent as HttpAgent, createServer, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createManualClock, systemClock } from '../../src/kernel/clock.ts';
import { deliver, DELIVERY_TIMEOUT_MS } from '../../src/notifications/webhook-client.ts';
import { afterThisTest } from '../support/leftovers.ts';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A receiver answering every request (once its body is in) with `answer`; closed, connections and all, after the test. */
async function receiver(answer: (res: ServerResponse) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterThisTest(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** Writes `chunk` into the answer; resolves with every byte the receiver has sent on that connection, head included. */
function write(res: ServerResponse, chunk: string): Promise<number> {
  const socket = res.socket!; // gone from `res` once the client has closed the connection
  return new Promise((resolve) => res.write(chunk, () => resolve(socket.bytesWritten)));
}

/**
 * One attempt on a manual clock, through an agent of its own so the test can see the client's socket (`connection`):
 * `read(n)` returns once the client has read `n` bytes off it (or closed it), and what came has been handled.
 */
function attempt(url: string) {
  const clock = createManualClock();
  const agent = new HttpAgent();
  afterThisTest(async () => agent.destroy());
  const result = deliver({ url, headers: {}, body: '{}' }, { clock, signal: new AbortController().signal, agents: { 'http:': agent, 'https:': new HttpsAgent() } });
  let settled = false;
  void result.then(() => (settled = true));
  let socket: Socket | undefined;
  const read = async (bytes: number) => {
    for (;;) {
      socket ??= Object.values(agent.sockets).flat()[0];
      if (socket && (socket.destroyed || socket.bytesRead >= bytes)) break;
      await turn();
    }
    await turn();
  };
  return { clock, result, read, settled: () => settled, connection: () => socket };
}

describe('what an attempt records of the answer', () => {
  it('records the 200 of a receiver whose body is still coming at the timeout, with what of it came: not "no answer"', async () => {
    let sent!: Promise<number>;
    const { url } = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      sent = write(res, '{"received":'); // and nothing more: a body that trickles, or hangs
    });
    const { clock, result, read } = attempt(url);
    await read(await until(() => sent));

    await clock.advance(DELIVERY_TIMEOUT_MS);
    expect(await result).toMatchObject({ statusCode: 200, excerpt: '{"received":', error: null, interrupted: false });
  });

  it('reads an endless body only as far as the excerpt needs, then closes the connection, without waiting for the timeout', async () => {
    let sent!: Promise<number>;
    const { url } = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      sent = write(res, '🧵'.repeat(5_000)); // four bytes each: 20 KB of a body that never ends
    });
    const { result, read, settled, connection } = attempt(url);
    await read(await until(() => sent));

    expect(settled(), 'answered before the timeout').toBe(true);
    const { statusCode, excerpt, error } = await result;
    expect({ statusCode, error }).toEqual({ statusCode: 200, error: null });
    expect(excerpt).toBe('🧵'.repeat(500)); // 500 characters, not 500 UTF-16 code units
    expect(connection()?.destroyed, 'the connection is closed, not left reading').toBe(true);
  });

  it('still records "no answer" for a receiver that never answers', async () => {
    let asked!: () => void;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    const { url } = await receiver(() => asked());
    const { clock, result } = attempt(url);
    await arrived;

    await clock.advance(DELIVERY_TIMEOUT_MS);
    expect(await result).toMatchObject({ statusCode: null, excerpt: null, error: 'no answer within 10 s', interrupted: false });
  });

  it.each([
    [301, 'https://example.com/hook', 'https://example.com/hook'],
    [302, 'https://www.example.com/hook/', 'https://www.example.com/hook/'],
    [308, 'https://example.com/\thook', 'https://example.com/hook'],
    [307, `https://example.com/${'a'.repeat(1_000)}`, `https://example.com/${'a'.repeat(180)}…`],
  ])('records where a %i pointed, not followed', async (status, location, shown) => {
    const { url } = await receiver((res) => res.writeHead(status, { location, 'content-type': 'text/plain' }).end('Moved'));
    const result = await deliver({ url, headers: {}, body: '{}' }, { clock: systemClock, signal: new AbortController().signal });
    expect(result).toMatchObject({ statusCode: status, excerpt: 'Moved', error: `HTTP ${status}: redirect to ${shown}, not followed` });
  });
});

/** `sent` is assigned when the receiver's handler runs: waits (turns of the event loop, no timer) until it has. */
async function until(sent: () => Promise<number> | undefined): Promise<number> {
  while (!sent()) await turn();
  return sent()!;
}
