/**
 * A subscription client keeps its subscription through a restart of the server, and resumes with the current state:
 * the order is paid while the client is away, and the first event after it reconnects already says so (every stream
 * starts with the current state, docs/graphql.md). graphql-ws as the README's "Frontend apps" configures it
 * (shouldRetry, retryAttempts), and graphql-sse in its distinct connections mode, which connects again only because
 * a shutdown ends its stream without `complete` (docs/edge.md#shutdown-of-streams). Real processes on one SQLite
 * file, the second on the first one's port.
 */
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { VALID_ORDER } from '../support/gateway.ts';

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

/** What both libraries' clients have in common. */
interface SubscriptionClient {
  subscribe(payload: { query: string; variables: Record<string, unknown> }, sink: { next(value: any): void; error(error: unknown): void; complete(): void }): unknown;
  dispose(): unknown;
}

/**
 * Subscribes with the client `connect` makes, restarts the server, pays meanwhile: the events each connection saw.
 * The client's wait between tries lasts until the pay is answered, so it is back only after it: a fixed wait raced
 * the second server's start on a busy machine, and the new connection then saw the order still awaiting payment.
 */
async function eventsAcrossRestart(
  connect: (port: string, onConnected: () => void, retryWait: () => Promise<void>) => SubscriptionClient,
): Promise<string[]> {
  const env = { DATABASE_URL: `file:${join(tempDir(), 'restart.db')}`, LOG_LEVEL: 'warn' };
  const first = await startProcess(env);
  const port = new URL(first.url).port;
  const created = await postJson(`${first.url}/api/orders`, VALID_ORDER);
  expect(created.status).toBe(201);
  const { orderNumber, payToken } = created.body;

  let paidWhileAway!: () => void;
  const paid = new Promise<void>((resolve) => (paidWhileAway = resolve));
  const events: string[] = [];
  let connections = 0;
  const client = connect(port, () => void connections++, () => paid);
  const done = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: { n: orderNumber, t: payToken } },
      {
        next: ({ data }) => {
          events.push(`${connections}:${data.orderUpdates.status}`);
          if (data.orderUpdates.status === 'RECEIVED') resolve();
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
  const payment = await postJson(`${second.url}/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
  expect(payment.status).toBe(200);
  paidWhileAway();
  await done;
  await client.dispose();
  return events;
}

describe('subscriptions across a server restart', () => {
  it('graphql-ws reconnects by itself and resumes with the state the order reached meanwhile', async () => {
    const events = await eventsAcrossRestart((port, connected, retryWait) =>
      createWsClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, shouldRetry: () => true, retryAttempts: Infinity, retryWait, on: { connected } }),
    );
    // The first event on the new connection is the order as it is now: paid while the client was away.
    expect(events).toEqual(['1:AWAITING_PAYMENT', '2:RECEIVED']);
  });

  it('graphql-sse in its distinct connections mode connects again by itself after the restart, and resumes', async () => {
    // graphql-sse's defaults but for the wait between tries: a shutdown must read as a dropped connection, not an end.
    const events = await eventsAcrossRestart((port, connected, retryWait) =>
      createSseClient({ url: `http://127.0.0.1:${port}/graphql`, retryAttempts: Infinity, retry: retryWait, on: { connected } }),
    );
    expect(events).toEqual(['1:AWAITING_PAYMENT', '2:RECEIVED']);
  });
});
