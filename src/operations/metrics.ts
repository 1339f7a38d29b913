/**
 * Prometheus metrics (docs/operations.md#metrics, CONTRACT §7): one registry per gateway — tests make many gateways
 * in one process, and prom-client's global registry would mix them — holding every `sleeve_…` family the contract
 * lists. The doors and jobs report through `GatewayMetrics`; with METRICS=off they get `NO_METRICS`, which counts
 * nothing.
 *
 * Every label set is bounded: HTTP routes are the route table's templates (`/api/orders/:orderNumber`, never a raw
 * path, which holds order numbers and, in a query string, tokens), GraphQL operation names are the trusted
 * documents' names and then the first OPERATION_NAME_CAP others seen, the rest `other`.
 *
 * The process's default metrics (memory, CPU, event loop, GC) are collected once per process and registered in
 * every gateway's registry: prom-client's collectors start a GC observer and an event-loop monitor each time they
 * are set up, and never stop them.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { OperationCounter, RequestHistogram } from './fast-metrics.ts';

export type OperationType = 'query' | 'mutation' | 'subscription';
/** `ok`: no errors in the result; `error`: any (a domain error, a refusal, a masked failure). */
export type OperationOutcome = 'ok' | 'error';
/** How a subscription's events travel: graphql-ws, SSE, or HTTP multipart (Apollo Client's HttpLink: multipart-subscriptions.ts). */
export type SubscriptionTransport = 'ws' | 'sse' | 'http';
/** A delivery attempt: a 2xx, another status, or no answer at all (timeout, refused connection, unopened body). */
export type DeliveryOutcome = 'delivered' | 'http_error' | 'no_response';

export interface GatewayMetrics {
  readonly on: boolean;
  /** One HTTP request answered: its route template, method and status, and how long it took. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** One GraphQL operation executed (both paths, HTTP and WebSocket), named by its operation name if any. */
  operation(name: string | undefined, type: OperationType, outcome: OperationOutcome): void;
  subscriptionOpened(field: string, transport: SubscriptionTransport): void;
  subscriptionClosed(field: string, transport: SubscriptionTransport): void;
  deliveryAttempted(outcome: DeliveryOutcome, seconds: number): void;
  /** The dispatcher disabled a merchant's webhook endpoint: `gone` (410) or `failing` (ENDPOINT_DISABLE_AFTER). */
  endpointDisabled(reason: 'gone' | 'failing'): void;
  /** A request refused by a rate limit of `group` (src/kernel/rate-limiter.ts). */
  rateLimited(group: string): void;
  /** The registry, for the gauges read at scrape time (metrics-gauges.ts). */
  readonly registry: Registry | null;
}

export const NO_METRICS: GatewayMetrics = Object.freeze({
  on: false,
  request() {},
  operation() {},
  subscriptionOpened() {},
  subscriptionClosed() {},
  deliveryAttempted() {},
  endpointDisabled() {},
  rateLimited() {},
  registry: null,
});

/** Beyond the trusted documents' names, this many distinct operation names get a series of their own. */
export const OPERATION_NAME_CAP = 50;
/** Seconds: most answers take under 10 ms; an SSE stream lasts as long as it is open (then +Inf). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

let processRegistry: Registry | undefined;

/**
 * The process's own metrics, set up once (see above). A metric of the process's own added here before a gateway is
 * made is in that gateway's registry too (main.ts: `sleeve_redis_up`, src/operations/redis-link.ts).
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'sleeve_' });
  }
  return processRegistry;
}

export function createMetrics(options: { knownOperations?: readonly string[] } = {}): GatewayMetrics {
  return new PromMetrics(options.knownOperations ?? []);
}

/** A class: `request` runs for every request, and its state is fields, not closures (see rest-compat/node-adapter.ts). */
class PromMetrics implements GatewayMetrics {
  readonly on = true;
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram(REQUEST_BUCKETS);
  private readonly operations = new OperationCounter();
  private readonly subscriptions: Gauge;
  private readonly deliveries: Histogram;
  private readonly refusals: Counter;
  private readonly disabled: Counter;
  private readonly names: Set<string>;
  private readonly seen = new Set<string>();

  constructor(knownOperations: readonly string[]) {
    const registers = [this.registry];
    this.names = new Set(knownOperations);
    // Ours (fast-metrics.ts): prom-client's registry takes any object with a name and get().
    this.registry.registerMetric(this.requests as unknown as Metric);
    this.registry.registerMetric(this.operations as unknown as Metric);
    this.subscriptions = new Gauge({
      name: 'sleeve_graphql_subscriptions_open',
      help: 'GraphQL subscriptions open now, by root field and transport.',
      labelNames: ['field', 'transport'],
      registers,
    });
    this.deliveries = new Histogram({
      name: 'sleeve_notification_delivery_attempt_duration_seconds',
      help: 'Notification delivery attempts by outcome (delivered, http_error, no_response): how long each took.',
      labelNames: ['outcome'],
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'sleeve_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by route group (session, lookup, create, pay, challenge, unopened-lookup, unopened-pay).',
      labelNames: ['group'],
      registers,
    });
    this.disabled = new Counter({
      name: 'sleeve_webhook_endpoints_disabled_total',
      help: 'Merchant webhook endpoints disabled by the dispatcher, by reason (gone: 410; failing: ENDPOINT_DISABLE_AFTER).',
      labelNames: ['reason'],
      registers,
    });
    // prom-client types the array as plain objects; it holds the metric instances themselves.
    for (const metric of processMetrics().getMetricsAsArray()) this.registry.registerMetric(metric as unknown as Metric);
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
  }

  operation(name: string | undefined, type: OperationType, outcome: OperationOutcome): void {
    this.operations.inc(this.operationLabel(name), type, outcome);
  }

  subscriptionOpened(field: string, transport: SubscriptionTransport): void {
    this.subscriptions.inc({ field, transport });
  }

  subscriptionClosed(field: string, transport: SubscriptionTransport): void {
    this.subscriptions.dec({ field, transport });
  }

  deliveryAttempted(outcome: DeliveryOutcome, seconds: number): void {
    this.deliveries.observe({ outcome }, seconds);
  }

  endpointDisabled(reason: 'gone' | 'failing'): void {
    this.disabled.inc({ reason });
  }

  rateLimited(group: string): void {
    this.refusals.inc({ group });
  }

  /** A bounded label: the trusted documents' names, then the first OPERATION_NAME_CAP others, then `other`. */
  private operationLabel(name: string | undefined): string {
    if (name === undefined || name === '') return 'anonymous';
    if (this.names.has(name) || this.seen.has(name)) return name;
    if (this.seen.size >= OPERATION_NAME_CAP || name.length > 100) return 'other';
    this.seen.add(name);
    return name;
  }
}
