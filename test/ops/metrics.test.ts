/**
 * `/metrics` (CONTRACT §7, docs/operations.md#metrics): Prometheus's text exposition, parsed strictly
 * (prometheus-text.ts), with every family the contract lists filled by real traffic — REST, GraphQL on both paths
 * and over WebSocket and SSE, a delivery to a real merchant endpoint, a rate-limit refusal — its labels bounded
 * (route templates, never an order number, a token or an email), METRICS_TOKEN, and METRICS=off.
 */
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';
import { createGraphQLDoor } from '../../graphql-server/graphql-door.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createRateLimiter } from '../../src/kernel/rate-limiter.ts';
import { createMetrics, NO_METRICS, OPERATION_NAME_CAP } from '../../src/operations/metrics.ts';
import { openClaim } from '../notifications/helpers.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
// @ts-expect-error: the package ships no types
import parsePrometheus from 'parse-prometheus-text-format';
import { parsePrometheusText, type Family, type Sample } from './prometheus-text.ts';

const CONTRACT_FAMILIES: Record<string, string> = {
  sleeve_http_request_duration_seconds: 'histogram',
  sleeve_graphql_operations_total: 'counter',
  sleeve_graphql_subscriptions_open: 'gauge',
  sleeve_orders: 'gauge',
  // Not in the contract: whether the scrape read the database (docs/operations.md#metrics).
  sleeve_database_up: 'gauge',
  sleeve_outbox_notifications: 'gauge',
  sleeve_outbox_oldest_pending_age_seconds: 'gauge',
  sleeve_notification_delivery_attempt_duration_seconds: 'histogram',
  sleeve_rate_limit_refusals_total: 'counter',
  // The process's own (prom-client's default metrics, under the same prefix).
  sleeve_process_cpu_user_seconds_total: 'counter',
  sleeve_process_resident_memory_bytes: 'gauge',
  sleeve_nodejs_eventloop_lag_seconds: 'gauge',
  sleeve_nodejs_heap_size_used_bytes: 'gauge',
};

async function scrape(t: TestGateway, headers: Record<string, string> = {}): Promise<Map<string, Family>> {
  const answer = await t.gateway.fetch(new Request('http://sleeve.test/metrics', { headers }));
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const text = await answer.text();
  const families = parsePrometheusText(text);
  // And a third-party parser of the exposition format agrees on every family and its type.
  const theirs = (parsePrometheus(text) as Array<{ name: string; type: string }>).map((f) => `${f.name} ${f.type.toLowerCase()}`).sort();
  expect(theirs).toEqual([...families.values()].map((f) => `${f.name} ${f.type}`).sort());
  return families;
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
function value(families: Map<string, Family>, family: string, name: string, labels: Record<string, string>): number {
  const matching = families.get(family)!.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return matching[0]?.value ?? 0;
}

const requests = (f: Map<string, Family>, route: string, method: string, status: string) =>
  value(f, 'sleeve_http_request_duration_seconds', 'sleeve_http_request_duration_seconds_count', { route, method, status });
const operations = (f: Map<string, Family>, operation: string, type: string, outcome: string) =>
  value(f, 'sleeve_graphql_operations_total', 'sleeve_graphql_operations_total', { operation, type, outcome });
const open = (f: Map<string, Family>, field: string, transport: string) => value(f, 'sleeve_graphql_subscriptions_open', 'sleeve_graphql_subscriptions_open', { field, transport });

const COUNTDOWN = 'subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { secondsLeft } }';

describe('/metrics', () => {
  it('answers every family the contract lists, from real traffic on every door, in the text format', async () => {
    const receiver = await startReceiver();
    // One lookup of an order per window: the second is refused (the `lookup` group).
    const live = await liveServer({ env: { MERCHANT_ENDPOINT: receiver.url, RATE_LIMIT_SUBJECT_READ: '1' } });
    const url = live.server.url;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const { orderNumber, payToken } = await live.createOrder();
    const email = 'grace@example.com';
    await post('/api/orders', { email, name: 'Grace Hopper', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'COBOL' });
    expect((await fetch(`${url}/api/orders/${orderNumber}?t=${payToken}`)).status).toBe(200);
    expect((await fetch(`${url}/api/orders/${orderNumber}?t=${payToken}`)).status).toBe(429);
    expect((await fetch(`${url}/no/such/${payToken}`)).status).toBe(404);
    // The same document twice: yoga answers the first, the fast JSON path the second; both are counted.
    for (let i = 0; i < 2; i++) expect((await post('/graphql', { query: '{ sleeveOptions { charLimit } }' })).status).toBe(200);
    for (let i = 0; i < 2; i++) await post('/graphql', { query: 'query Options { sleeveOptions { sizes } }' });
    // A delivery to a real merchant endpoint.
    await openClaim(live);
    await receiver.waitFor(1);
    // Two subscriptions open, one per transport.
    const ws = subscribe(live.client(), COUNTDOWN, { n: orderNumber, t: payToken });
    await ws.next();
    const sse = await post('/graphql', { query: COUNTDOWN, variables: { n: orderNumber, t: payToken } }, { accept: 'text/event-stream' });
    const reader = sse.body!.getReader();
    await reader.read();

    const f = await eventually(async () => {
      const scraped = await scrape(live);
      return value(scraped, 'sleeve_notification_delivery_attempt_duration_seconds', 'sleeve_notification_delivery_attempt_duration_seconds_count', { outcome: 'delivered' }) > 0 ? scraped : null;
    });
    for (const [name, type] of Object.entries(CONTRACT_FAMILIES)) expect(f.get(name)?.type, name).toBe(type);
    for (const name of f.keys()) expect(name).toMatch(/^sleeve_/u);

    expect(requests(f, '/api/orders', 'POST', '201')).toBe(3); // in memory (createOrder, the claim's) and over the socket
    expect(requests(f, '/api/orders/:orderNumber', 'GET', '200')).toBe(1);
    expect(requests(f, '/api/orders/:orderNumber', 'GET', '429')).toBe(1);
    expect(requests(f, 'unmatched', 'GET', '404')).toBe(1);
    expect(requests(f, '/graphql', 'POST', '200')).toBeGreaterThanOrEqual(4);
    expect(operations(f, 'anonymous', 'query', 'ok')).toBe(2);
    expect(operations(f, 'Options', 'query', 'ok')).toBe(2);
    expect(operations(f, 'anonymous', 'mutation', 'ok')).toBe(1); // openClaim
    expect(operations(f, 'anonymous', 'subscription', 'ok')).toBe(2);
    expect(open(f, 'holdCountdown', 'ws')).toBe(1);
    expect(open(f, 'holdCountdown', 'sse')).toBe(1);
    expect(value(f, 'sleeve_rate_limit_refusals_total', 'sleeve_rate_limit_refusals_total', { group: 'lookup' })).toBe(1);
    expect(value(f, 'sleeve_orders', 'sleeve_orders', { status: 'awaiting_payment' })).toBe(3); // two here, one for the claim
    expect(value(f, 'sleeve_orders', 'sleeve_orders', { status: 'collected' })).toBe(0);
    expect(value(f, 'sleeve_database_up', 'sleeve_database_up', {})).toBe(1);
    expect(value(f, 'sleeve_outbox_notifications', 'sleeve_outbox_notifications', { state: 'failed' })).toBe(0);

    // Never a raw path, order number, token or email in a label: routes are the route table's templates.
    const labels = [...f.values()].flatMap((family) => family.samples.flatMap((s: Sample) => Object.values(s.labels)));
    for (const secret of [payToken, email, 'ada@example.com', '?t=']) expect(labels.some((label) => label.includes(secret))).toBe(false);
    expect(labels).not.toContain(orderNumber);
    const routes = new Set(f.get('sleeve_http_request_duration_seconds')!.samples.map((s) => s.labels.route));
    for (const route of routes) expect(route === 'unmatched' || route === '/graphql' || !/\/\d/u.test(route!)).toBe(true);

    // Closing them takes each subscription off the gauge.
    ws.dispose();
    await reader.cancel();
    await eventually(async () => {
      const now = await scrape(live);
      return open(now, 'holdCountdown', 'ws') === 0 && open(now, 'holdCountdown', 'sse') === 0;
    });
  });

  it('reads the outbox backlog at scrape time: pending, failed, and the age of the oldest pending', async () => {
    // No MERCHANT_ENDPOINT: a queued notification stays pending.
    const t = await testGateway();
    await openClaim(t);
    await t.clock.advance(90_000);
    const f = await scrape(t);
    expect(value(f, 'sleeve_outbox_notifications', 'sleeve_outbox_notifications', { state: 'pending' })).toBeGreaterThanOrEqual(1);
    expect(value(f, 'sleeve_outbox_oldest_pending_age_seconds', 'sleeve_outbox_oldest_pending_age_seconds', {})).toBe(90);
  });

  it('keeps GraphQL operation names bounded: known names, then the first few others, then `other`', async () => {
    const t = await testGateway();
    for (let i = 0; i < OPERATION_NAME_CAP + 5; i++) await t.gql(`query Name${i} { sleeveOptions { charLimit } }`);
    const f = await scrape(t);
    const names = new Set(f.get('sleeve_graphql_operations_total')!.samples.map((s) => s.labels.operation));
    expect(names.size).toBe(OPERATION_NAME_CAP + 1);
    expect(operations(f, 'other', 'query', 'ok')).toBe(5);
  });

  it('counts per gateway: two gateways in one process do not share a registry', async () => {
    const a = await testGateway();
    const b = await testGateway();
    for (let i = 0; i < 3; i++) await a.rest('GET', '/api/sleeve-options');
    expect(requests(await scrape(a), '/api/sleeve-options', 'GET', '200')).toBe(3);
    expect(requests(await scrape(b), '/api/sleeve-options', 'GET', '200')).toBe(0);
  });

  it('with METRICS_TOKEN answers only its bearer, 401 otherwise', async () => {
    const t = await testGateway({ env: { METRICS_TOKEN: 'metrics-secret' } });
    for (const authorization of [undefined, 'Bearer wrong', 'Basic bWV0cmljcy1zZWNyZXQ=', 'metrics-secret', `Bearer ${t.adminToken}`]) {
      const answer = await t.rest('GET', '/metrics', undefined, authorization ? { authorization } : {});
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(answer.body).toMatchObject({ ok: false, code: 'unauthorized' });
    }
    expect((await scrape(t, { authorization: 'Bearer metrics-secret' })).has('sleeve_orders')).toBe(true);
  });

  it('with METRICS=off serves no /metrics, and the fast JSON path stays on either way', async () => {
    const t = await testGateway({ env: { METRICS: 'off' } });
    expect((await t.rest('GET', '/metrics')).status).toBe(404);
    const { gateway } = t;
    for (const metrics of [NO_METRICS, createMetrics()]) {
      const door = createGraphQLDoor({ ...gateway.config, schema, services: gateway.services, limiter: createRateLimiter(gateway.config.rateLimits, gateway.clock), logger: createLogger('silent'), now: () => gateway.clock.now(), metrics });
      expect(door.compiledPathOn).toBe(true);
    }
  });
});
