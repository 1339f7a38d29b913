/**
 * What a live display of one order sees (its `holdCountdown` and `orderUpdates`), and what a staff console sees
 * (`orderEvents`), over graphql-ws on one instance, each in the order it came. For the suites that change orders
 * elsewhere (test/scale/).
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterThisTest } from './gateway.ts';

export interface OrderStreams {
  /** The status of each holdCountdown event. */
  tick: string[];
  /** The status of each orderUpdates event. */
  update: string[];
}

/**
 * Resolves when `done` holds. After `ms` it rejects naming `what` when given (a step the test cannot go on without);
 * without one it resolves, and the caller's assertions then say what was missing.
 */
export async function until(done: () => boolean | Promise<boolean>, ms: number, what?: string): Promise<void> {
  const by = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() >= by) {
      if (what) throw new Error(`not within ${ms} ms: ${what}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Subscribes to both streams of order `n` (payToken `t`) on `base`; resolves once each has shown the order. */
export async function followOrder(base: string, vars: { n: string; t: string }): Promise<OrderStreams> {
  const client = createClient({ url: base.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
  afterThisTest(async () => client.dispose());
  const seen: OrderStreams = { tick: [], update: [] };
  client.subscribe<any>(
    { query: 'subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { status final } }', variables: vars },
    { next: ({ data }) => seen.tick.push(data.holdCountdown.status), error: () => {}, complete: () => {} },
  );
  client.subscribe<any>(
    { query: 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { status } }', variables: vars },
    { next: ({ data }) => seen.update.push(data.orderUpdates.status), error: () => {}, complete: () => {} },
  );
  await until(() => seen.tick.length > 0 && seen.update.length > 0, 10_000, `both streams of order ${vars.n} on ${base} showing it`);
  return seen;
}

/**
 * Any subscription on `base`: what `pick` takes from each result, in order of arrival. Not yet known to be
 * listening; an `adminToken` signs it in as staff.
 */
export function record<T>(base: string, query: string, pick: (data: any) => T, adminToken?: string): T[] {
  const client = createClient({
    url: base.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...(adminToken ? { connectionParams: { authorization: `Bearer ${adminToken}` } } : {}),
  });
  afterThisTest(async () => client.dispose());
  const seen: T[] = [];
  client.subscribe<any>({ query }, { next: ({ data }) => seen.push(pick(data)), error: () => {}, complete: () => {} });
  return seen;
}

/** A staff console's `orderEvents` on `base`: each event as "orderNumber STATUS". */
export function followOrderEvents(base: string, adminToken: string): string[] {
  const query = 'subscription { orderEvents { orderNumber status } }';
  return record(base, query, (data) => `${data.orderEvents.orderNumber} ${data.orderEvents.status}`, adminToken);
}
