/**
 * The package entry as a frontend team's tests meet it (a review of the package): `dispose()` ends the streams still
 * open on the in-memory gateway (a test waiting for its subscription to finish is not left to time out), a gateway
 * used after `dispose()` says so instead of answering 200 "Unexpected error.", and the configuration error that
 * `createGateway` throws is exported, so a test can tell it from any other. A server started on the gateway is closed
 * by its `dispose()` (an outside review found one answering on, every GraphQL request an "Unexpected error.").
 */
import { createClient } from 'graphql-sse';
import { expect, it } from 'vitest';
import { ConfigError, createGateway, createManualClock, startServer } from '../src/index.ts';

const ORDER = { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };

// With a server started on it too (graphql-ws needs one): the server's close ended every stream the SIGTERM way,
// without `complete`, and the in-memory client was left retrying a disposed gateway (a frontend team's review).
it.each([['alone', false], ['with a server started on it', true]])('dispose() completes a subscription still open through gateway.fetch (%s)', async (_, served) => {
  const gateway = await createGateway({ clock: createManualClock() });
  if (served) await startServer(gateway, { port: 0, host: '127.0.0.1' });
  const created = await gateway.fetch(new Request('http://localhost/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ORDER) }));
  const { orderNumber, payToken } = (await created.json()) as { orderNumber: string; payToken: string };
  const client = createClient({ url: 'http://localhost/graphql', fetchFn: (input: RequestInfo, init?: RequestInit) => gateway.fetch(new Request(input, init)), retryAttempts: 0 });
  const events: unknown[] = [];
  const ended = new Promise<string>((resolve) => {
    client.subscribe(
      { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: { n: orderNumber, t: payToken } },
      { next: (value) => events.push(value), error: (error) => resolve(`error: ${String(error)}`), complete: () => resolve('complete') },
    );
  });
  await expect.poll(() => events.length).toBeGreaterThan(0); // the stream is open: its first event came
  await gateway.dispose();
  expect(await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000))])).toBe('complete');
  client.dispose();
});

it('a disposed gateway refuses requests by saying so', async () => {
  const gateway = await createGateway();
  await gateway.dispose();
  await expect(gateway.fetch(new Request('http://localhost/graphql?query=%7B__typename%7D'))).rejects.toThrow(/disposed/u);
  await gateway.dispose(); // twice is harmless
});

it('dispose() closes a server started on the gateway, which no longer answers (it answered 200 with every GraphQL request failing)', async () => {
  const gateway = await createGateway({ clock: createManualClock() });
  const server = await startServer(gateway, { port: 0, host: '127.0.0.1' });
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  await gateway.dispose();
  await expect(fetch(`${server.url}/health`)).rejects.toThrow(/fetch failed/u);
  expect(server.server.listening).toBe(false);
  await server.close(); // closing it again, as a test's own cleanup would, is harmless
});

it('exports ConfigError, the error a bad setting stops createGateway with', async () => {
  const refused = await createGateway({ env: { HOLD_SECONDS: 'soon' } }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ConfigError);
  expect((refused as InstanceType<typeof ConfigError>).variable).toBe('HOLD_SECONDS');
});
