// @vitest-environment happy-dom
/**
 * The package in vitest's happy-dom environment. `createGateway()` failed there (the webhook dispatcher's stop signal
 * was happy-dom's AbortSignal, which node refused); it starts now, and REST answers through `gateway.fetch`. GraphQL
 * through `gateway.fetch` does not: yoga's fetch layer takes happy-dom's `ReadableStream` for its answer's body, which
 * node's Response cannot read (README, "Testing against it": such a file runs in the `node` environment).
 */
import { expect, it } from 'vitest';
import { createGateway, createManualClock } from '../../src/index.ts';

it("starts in vitest's happy-dom environment, and answers REST through gateway.fetch", async () => {
  expect(typeof document).toBe('object');
  const gateway = await createGateway({ clock: createManualClock() });
  try {
    const response = await gateway.fetch(new Request('http://localhost/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' }),
    }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { orderNumber: string }).orderNumber).toBe('1001');
  } finally {
    await gateway.dispose();
  }
});
