/**
 * What a frontend team's component tests do with the package in vitest's `jsdom` or `happy-dom` environment, where
 * `EventTarget`, `CustomEvent`, `AbortController` and `Event` are the imitation browser's: the gateway in memory,
 * an order followed live over SSE (`gateway.fetch`, the event bus underneath), and its hold run out by the manual
 * clock. `createGateway()` itself failed there, in the event bus and the webhook dispatcher (an outside review of the
 * package, 2026-12-04). Run by one test file per environment (a file's environment is set by its first comment).
 */
import { expect } from 'vitest';
import { createGateway, createManualClock } from '../../src/index.ts';

export async function followAnOrderToItsCancellation(): Promise<void> {
  // The environment is the imitation's: the point of the test.
  expect(typeof document).toBe('object');
  const clock = createManualClock();
  const gateway = await createGateway({ clock });
  try {
    const post = (body: unknown, accept = 'application/json') =>
      gateway.fetch(new Request('http://localhost/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) }));
    const created = (await (await post({
      query: 'mutation ($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber payToken } ... on ApiError { code error } } }',
      variables: { input: { email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } },
    })).json()) as { data: { createOrder: { orderNumber: string; payToken: string } } };
    const { orderNumber, payToken } = created.data.createOrder;
    expect(orderNumber).toBe('1001');

    const stream = await post({ query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: { n: orderNumber, t: payToken } }, 'text/event-stream');
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (status: string) => {
      while (!text.includes(`"status":"${status}"`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${status}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until('AWAITING_PAYMENT');
    await clock.advance(5 * 60 * 1000);
    await until('CANCELLED');
    const openStreams = async () => {
      const metrics = await (await gateway.fetch(new Request('http://localhost/metrics'))).text();
      return metrics.match(/^sleeve_graphql_subscriptions_open\{field="orderUpdates",transport="sse"\} (\d+)$/mu)?.[1];
    };
    expect(await openStreams()).toBe('1');
    // Reading no further ends the subscription in the gateway, as a closed EventSource does.
    await reader.cancel();
    await expect.poll(openStreams).toBe('0');
  } finally {
    await gateway.dispose();
  }
}
