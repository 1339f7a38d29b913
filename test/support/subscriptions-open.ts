/**
 * How many subscriptions a server holds, from its `/metrics`: the gauge `sleeve_graphql_subscriptions_open` counts a
 * stream once its subscribe resolved (graphql-server/use-metrics.ts), which is after it listens on the event bus, its
 * SUBSCRIBE answered on Redis (src/events/stream-start.ts; test/live/subscribe-acknowledged.test.ts), or given up on
 * after BUS_COMMAND_WAIT_MS when Redis does not answer; and until its end reaches the gateway. A test that waits
 * for it knows that what it changes next reaches those streams, on this instance or from another; a fixed sleep only
 * hoped so, and a slow host could outrun it.
 */
import { until } from './order-streams.ts';

/** The subscriptions to `field` over `transport` (ws, sse or http) that `base` holds now. */
export async function openSubscriptions(base: string, field: string, transport = 'ws'): Promise<number> {
  const gauge = new RegExp(`^sleeve_graphql_subscriptions_open\\{(?=[^}]*field="${field}")(?=[^}]*transport="${transport}")[^}]*\\} (\\d+)$`, 'mu');
  return Number(gauge.exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0);
}

/**
 * Resolves once `base` holds at least `count` subscriptions to `field` over `transport`; rejects after `ms`, naming
 * them. A stream that failed to start (refused, or its starting state unreadable) is never counted.
 */
export async function subscriptionsOpen(base: string, field: string, count = 1, { transport = 'ws', ms = 10_000 } = {}): Promise<void> {
  const what = `${count} ${field} subscriptions over ${transport} open on ${base}`;
  await until(async () => (await openSubscriptions(base, field, transport)) >= count, ms, what);
}
