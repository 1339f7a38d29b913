/**
 * A graphql-ws client (as the README's "Frontend apps" configures it: shouldRetry, retryAttempts) keeps its
 * subscription through a restart of the server, and resumes with the current state: the order is paid while the
 * client is away, and the first event after it reconnects already says so (every stream starts with the current
 * state, docs/graphql.md). Real processes on one SQLite file, the second on the first one's port.
 */
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { VALID_ORDER } from '../support/gateway.ts';

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('graphql-ws across a server restart', () => {
  it('reconnects by itself and resumes with the state the order reached meanwhile', async () => {
    const env = { DATABASE_URL: `file:${join(tempDir(), 'restart.db')}`, LOG_LEVEL: 'warn' };
    const first = await startProcess(env);
    const port = new URL(first.url).port;
    const created = await postJson(`${first.url}/api/orders`, VALID_ORDER);
    expect(created.status).toBe(201);
    const { orderNumber, payToken } = created.body;

    const events: string[] = [];
    let connections = 0;
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      shouldRetry: () => true,
      retryAttempts: Infinity,
      // Long enough that the pay below lands while the client is away.
      retryWait: () => new Promise((resolve) => setTimeout(resolve, 1_500)),
      on: { connected: () => void connections++ },
    });
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: { n: orderNumber, t: payToken } },
        {
          next: ({ data }) => {
            events.push(`${connections}:${(data as any).orderUpdates.status}`);
            if ((data as any).orderUpdates.status === 'RECEIVED') resolve();
          },
          error: reject,
          complete: () => reject(new Error('completed')),
        },
      );
    });
    await expect.poll(() => events).toEqual(['1:AWAITING_PAYMENT']);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startProcess({ ...env, PORT: port });
    const paid = await postJson(`${second.url}/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    expect(paid.status).toBe(200);

    await done;
    await client.dispose();
    expect(connections).toBe(2);
    // The first event on the new connection is the order as it is now: paid while the client was away.
    expect(events).toEqual(['1:AWAITING_PAYMENT', '2:RECEIVED']);
  });

  it('graphql-sse in its distinct connections mode: connects again by itself after the restart, and resumes', async () => {
    const env = { DATABASE_URL: `file:${join(tempDir(), 'restart-sse.db')}`, LOG_LEVEL: 'warn' };
    const first = await startProcess(env);
    const port = new URL(first.url).port;
    const created = await postJson(`${first.url}/api/orders`, VALID_ORDER);
    const { orderNumber, payToken } = created.body;

    const events: string[] = [];
    let connections = 0;
    // graphql-sse's defaults but for the wait between tries: a shutdown must read as a dropped connection, not an end.
    const client = createSseClient({
      url: `http://127.0.0.1:${port}/graphql`,
      retryAttempts: Infinity,
      retry: () => new Promise((resolve) => setTimeout(resolve, 1_500)),
      on: { connected: () => void connections++ },
    });
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: { n: orderNumber, t: payToken } },
        {
          next: ({ data }) => {
            events.push(`${connections}:${(data as any).orderUpdates.status}`);
            if ((data as any).orderUpdates.status === 'RECEIVED') resolve();
          },
          error: reject,
          complete: () => reject(new Error('completed by the server')),
        },
      );
    });
    await expect.poll(() => events).toEqual(['1:AWAITING_PAYMENT']);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startProcess({ ...env, PORT: port });
    const paid = await postJson(`${second.url}/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    expect(paid.status).toBe(200);

    await done;
    client.dispose();
    expect(events).toEqual(['1:AWAITING_PAYMENT', '2:RECEIVED']);
  });
});
