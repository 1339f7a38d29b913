/**
 * Tracing (docs/operations.md#tracing): with the SDK registered — here with the in-memory span exporter instead of
 * OTLP — a REST pay, a payment through the processor and a GraphQL createOrder each come out as one tree of spans
 * under their HTTP server span, whose parent is the caller's `traceparent`. Requests go through a real port.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer } from '../../src/server.ts';
import { startTracing, type TracingHandle } from '../../src/operations/tracing-sdk.ts';
import { tracingOn } from '../../src/operations/tracing.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { testGateway, VALID_ORDER, afterThisTest } from '../support/gateway.ts';
import { CARDS, paymentBody } from '../payments/support.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const exporter = new InMemorySpanExporter();
let tracing: TracingHandle;
beforeAll(() => {
  tracing = startTracing({ exporter });
});
afterAll(() => tracing.shutdown());
beforeEach(() => exporter.reset());

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;

async function served(lines?: string[], env: Record<string, string> = {}) {
  const t = await testGateway({ env, ...(lines ? { logger: createLogger('info', (line) => void lines.push(line)) } : {}) });
  const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: TRACEPARENT, ...headers }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { t, post, url: server.url };
}

/** The spans of the caller's trace, as a tree printed one line per span: indentation is depth. */
function tree(): string[] {
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === TRACE_ID);
  const byParent = new Map<string, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId ?? '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const span of (byParent.get(parent) ?? []).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(CALLER_SPAN, 0);
  expect(lines.length, 'every span of the trace hangs from the caller').toBe(spans.length);
  return lines;
}

describe('tracing', () => {
  it('is on', () => {
    expect(tracingOn()).toBe(true);
  });

  it('a REST pay is one tree: the HTTP span, then its transactions', async () => {
    const { post } = await served();
    const created = await post('/api/orders', VALID_ORDER, { traceparent: '' });
    exporter.reset();
    const paid = await post(`/api/orders/${created.body.orderNumber}/pay`, { t: created.body.payToken, method: 'vendor_card' });
    expect(paid.status).toBe(200);
    const lines = tree();
    expect(lines[0]).toBe('POST /api/orders/:orderNumber/pay');
    expect(lines.slice(1).every((line) => line === '  db.transaction')).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
  });

  it('a payment through the processor: the charge between its reserve and record transactions', async () => {
    const { t, post } = await served();
    const paid = await post('/api/payments', paymentBody(CARDS.ok), { authorization: t.siteAuthorization, 'idempotency-key': 'trace-1' });
    expect(paid.status).toBe(201);
    const lines = tree();
    expect(lines[0]).toBe('POST /api/payments');
    const children = lines.slice(1).map((line) => line.trim());
    const charge = children.indexOf('processor.charge');
    expect(charge).toBeGreaterThan(0);
    expect(children.slice(0, charge)).toContain('db.transaction');
    expect(children.slice(charge + 1)).toContain('db.transaction');
    // Nothing about the card in any span.
    const attributes = JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes));
    expect(attributes).not.toContain(CARDS.ok);
    expect(attributes).not.toContain('4242');
  });

  it('a GraphQL createOrder is one tree: the HTTP span, the operation, its transaction', async () => {
    const { post } = await served();
    const created = await post('/graphql', {
      query: 'mutation Create($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber } } }',
      variables: { input: VALID_ORDER },
    });
    expect(created.body.data.createOrder.orderNumber).toBe('1001');
    const lines = tree();
    expect(lines[0]).toBe('POST /graphql');
    expect(lines[1]).toBe('  graphql.mutation Create');
    expect(lines.slice(2)).toContain('    db.transaction');
    const operation = exporter.getFinishedSpans().find((s) => s.name === 'graphql.mutation Create')!;
    expect(operation.attributes).toMatchObject({ 'graphql.operation.type': 'mutation', 'graphql.operation.name': 'Create' });
  });

  it('a rate-limited operation is its named span too, with the refusal as its error status', async () => {
    const { post } = await served(undefined, { RATE_LIMIT_WRITE: '1' });
    const create = (email: string) => post('/graphql', {
      query: 'mutation Create($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber } } }',
      variables: { input: { ...VALID_ORDER, email } },
    });
    expect((await create('first@example.com')).body.data.createOrder.orderNumber).toBe('1001');
    exporter.reset();
    const refused = await create('second@example.com');
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // Stopped by the rate limit before execution: the span was an unnamed `graphql.execute` with no status.
    expect(tree().slice(0, 2)).toEqual(['POST /graphql', '  graphql.mutation Create']);
    const operation = exporter.getFinishedSpans().find((s) => s.name === 'graphql.mutation Create')!;
    expect(operation.status).toMatchObject({ code: 2, message: 'RATE_LIMITED' });
  });

  it("delivers the webhooks a request causes under its trace, retries too, and gives each receiver its attempt's traceparent", async () => {
    const operator = await startReceiver(); // MERCHANT_ENDPOINT
    const { t, post } = await served(undefined, { MERCHANT_ENDPOINT: operator.url, MERCHANT_SIGNING_KEY: 'trace-key', NOTIFY_RETRY_SCHEDULE: '0,5s,5m' });
    const own = await startReceiver(); // the site's own endpoint
    expect((await t.rest('POST', '/v1/webhooks/endpoints', { url: own.url }, { authorization: t.siteAuthorization })).status).toBe(201);
    own.failNext(1); // its first attempt fails; the retry comes 5 s later, woken by the clock, not by the request
    exporter.reset();
    const decided = await post('/v2/accounts/profile-access/ev-trace', profileAccess({ accountId: 'acct-trace', accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t));
    expect(decided.status).toBe(200);
    await operator.waitFor(1);
    await own.waitFor(1);
    await eventually(() => exporter.getFinishedSpans().filter((span) => span.name === 'webhook.deliver').length === 2);
    await t.clock.advance(5_000);
    await own.waitFor(2);
    const deliveries = await eventually(() => {
      const finished = exporter.getFinishedSpans().filter((span) => span.name === 'webhook.deliver');
      return finished.length === 3 ? finished : undefined;
    });
    // Before, the retry was a root span (the first attempts hung under whatever woke the dispatcher), and receivers
    // got no traceparent.
    const lines = tree();
    expect(lines[0]).toBe('POST /v2/accounts/profile-access/:id');
    expect(lines.filter((line) => line === '  webhook.deliver')).toHaveLength(3);
    const sent = [...operator.requests, ...own.requests].map((request) => request.headers.traceparent).sort();
    expect(sent).toEqual(deliveries.map((span) => `00-${TRACE_ID}-${span.spanContext().spanId}-01`).sort());
  });

  it('sends a test event, a merchant\'s redelivery and a staff redelivery under the request that asked, linked to the first trace', async () => {
    const operator = await startReceiver(); // MERCHANT_ENDPOINT
    const { t, post } = await served(undefined, { MERCHANT_ENDPOINT: operator.url, MERCHANT_SIGNING_KEY: 'trace-key' });
    const own = await startReceiver();
    const site = { authorization: t.siteAuthorization };
    const endpoint = await t.rest('POST', '/v1/webhooks/endpoints', { url: own.url }, site);
    const base = `/v1/webhooks/endpoints/${endpoint.body.id}`;
    const deliversUnder = async (request: string, receiver: typeof own, count: number) => {
      await receiver.waitFor(count);
      const deliver = await eventually(() => exporter.getFinishedSpans().find((span) => span.name === 'webhook.deliver'));
      const lines = tree();
      expect([lines[0], lines.filter((line) => line.trim() === 'webhook.deliver').length]).toEqual([request, 1]);
      expect(receiver.requests[count - 1]!.headers.traceparent).toBe(`00-${TRACE_ID}-${deliver.spanContext().spanId}-01`);
      return deliver;
    };
    // Before, a test event's attempt was a root span of a trace of its own.
    expect((await post(`${base}/test`, {}, site)).status).toBe(202);
    expect((await deliversUnder('POST /v1/webhooks/endpoints/:id/test', own, 1)).links).toEqual([]);
    // A decision in a trace of its own queues a notification to both endpoints.
    const FIRST = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const decided = await post('/v2/accounts/profile-access/ev-redeliver', profileAccess({ accountId: 'acct-redeliver', accountOwner: { email: 'verify@vendor.test' } }), { ...platformHeaders(t), traceparent: FIRST });
    expect(decided.status).toBe(200);
    await Promise.all([operator.waitFor(1), own.waitFor(2)]);
    await eventually(() => exporter.getFinishedSpans().filter((span) => span.name === 'webhook.deliver').length === 3);
    exporter.reset();
    // Before, each redelivery went under the decision's trace: the request that asked for it had no trace of it.
    const deliveries = await t.rest('GET', `${base}/deliveries`, undefined, site);
    const notification = deliveries.body.data.find((delivery: any) => delivery.path !== '/webhook-test');
    expect((await post(`${base}/deliveries/${notification.id}/redeliver`, {}, site)).status).toBe(202);
    const merchant = await deliversUnder('POST /v1/webhooks/endpoints/:id/deliveries/:deliveryId/redeliver', own, 3);
    expect(merchant.links.map((link) => link.context.traceId)).toEqual(['0af7651916cd43dd8448eb211c80319c']);
    exporter.reset();
    const staff = await post('/graphql', { query: `mutation Again { redeliverNotification(id: "${operator.requests[0]!.headers['webhook-id']}") { status } }` }, { authorization: `Bearer ${t.adminToken}` });
    expect(staff.body.errors).toBeUndefined();
    const operatorSpan = await deliversUnder('POST /graphql', operator, 2);
    expect(operatorSpan.links.map((link) => link.context.traceId)).toEqual(['0af7651916cd43dd8448eb211c80319c']);
  });

  it('a subscription over SSE: its subscribe phase is a named span under the request', async () => {
    const { url } = await served();
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', traceparent: TRACEPARENT },
      body: JSON.stringify({ query: 'subscription Options { sleeveOptionsChanged { charLimit } }' }),
    });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('charLimit')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    // Before, a subscription made no span but the HTTP one.
    await eventually(() => ['POST /graphql', 'graphql.subscription Options'].every((name) => exporter.getFinishedSpans().some((span) => span.name === name)));
    expect(tree()).toEqual(['POST /graphql', '  graphql.subscription Options']);
    const subscribe = exporter.getFinishedSpans().find((span) => span.name === 'graphql.subscription Options')!;
    expect(subscribe.attributes).toMatchObject({ 'graphql.operation.type': 'subscription', 'graphql.operation.name': 'Options' });
  });

  it('a WebSocket upgrade is a server span under the caller; each operation on its socket a root span linked to it', async () => {
    const { url } = await served();
    /** graphql-ws's socket, opened with the caller's traceparent as a browser's page would not but a proxy or app may. */
    class TracedSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { traceparent: TRACEPARENT } });
      }
    }
    const client = createClient({ url: `${url.replace('http', 'ws')}/graphql`, webSocketImpl: TracedSocket, retryAttempts: 0 });
    afterThisTest(async () => void (await client.dispose()));
    const result = await new Promise<any>((resolve, reject) => {
      client.subscribe({ query: 'query Info { eventInfo }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(typeof result.data.eventInfo).toBe('string');
    // Before, an upgrade made no span at all, and nothing tied an operation to its socket.
    const upgrade = await eventually(() => exporter.getFinishedSpans().find((span) => span.name === 'GET /graphql'));
    expect(tree()).toEqual(['GET /graphql']);
    expect(upgrade.attributes).toMatchObject({ 'http.route': '/graphql', 'http.response.status_code': 101 });
    const operation = await eventually(() => exporter.getFinishedSpans().find((span) => span.name === 'graphql.query Info'));
    expect(operation.parentSpanContext).toBeUndefined();
    expect(operation.links.map((link) => link.context.spanId)).toEqual([upgrade.spanContext().spanId]);
  });

  it('puts the trace id on the request line and on every line the request causes', async () => {
    const lines: string[] = [];
    const { post } = await served(lines);
    const created = await post('/api/orders', VALID_ORDER);
    expect(created.status).toBe(201);
    const request = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(request).toHaveLength(1);
    expect(request[0].traceId).toBe(TRACE_ID);
    const others = lines.map((line) => JSON.parse(line)).filter((entry) => entry.requestId === request[0].requestId);
    expect(others.length).toBeGreaterThan(1);
    for (const entry of others) expect(entry.traceId).toBe(TRACE_ID);
  });
});
