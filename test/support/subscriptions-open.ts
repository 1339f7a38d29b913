/**
 * When a server's subscriptions listen, from its `/metrics`: the gauge `sleeve_graphql_subscriptions_open` counts a
 * stream once its subscribe resolved (graphql-server/use-metrics.ts), which is after it listens on the event bus, its
 * SUBSCRIBE answered on Redis (src/events/stream-start.ts). A test that waits for it knows that what it changes next
 * reaches those streams, on this instance or from another; a fixed sleep only hoped so, and on a slow host it lost.
 */

/** How often the gauge is read: a few ms of work for the server, and well under a stream's start. */
const POLL_MS = 20;

/**
 * Resolves once `base` holds at least `count` subscriptions to `field` over `transport`; rejects after `ms`, naming
 * them. A stream that failed to start (refused, or its starting state unreadable) is never counted.
 */
export async function subscriptionsOpen(base: string, field: string, count = 1, { transport = 'ws', ms = 10_000 } = {}): Promise<void> {
  const gauge = new RegExp(`^sleeve_graphql_subscriptions_open\\{(?=[^}]*field="${field}")(?=[^}]*transport="${transport}")[^}]*\\} (\\d+)$`, 'mu');
  const by = Date.now() + ms;
  for (let open = 0; ; await new Promise((resolve) => setTimeout(resolve, POLL_MS))) {
    open = Number(gauge.exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0);
    if (open >= count) return;
    if (Date.now() >= by) throw new Error(`${base} holds ${open} of the ${count} ${field} subscriptions over ${transport} a test waits for, after ${ms} ms`);
  }
}
