/**
 * The OpenTelemetry SDK, registered only when OTEL_EXPORTER_OTLP_ENDPOINT is set (main.ts imports this module then,
 * and only then). Spans go out in batches over OTLP/HTTP to the standard endpoint variables (the exporter reads
 * OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT itself); the service is named by OTEL_SERVICE_NAME or
 * `sleeve-gateway`. The W3C trace-context propagator and the AsyncLocalStorage context manager come with
 * `register()`. Tests pass their own exporter (an in-memory one) and a simple processor.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { hostname } from 'node:os';
import { detectResources, envDetector, resourceFromAttributes, serviceInstanceIdDetector } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { within } from '../kernel/bounded-wait.ts';
import { readTraceIdsFrom } from '../kernel/logger.ts';
import { activeTraceId, markTracingOn } from './tracing.ts';

export interface TracingHandle {
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * What a collector shows of the instance: its host and a service.instance.id of its own, so two instances of one
 * event tell apart, and OTEL_RESOURCE_ATTRIBUTES (an operator's review: only service.name went out).
 */
function instanceResource() {
  // Not hostDetector: its host.id comes asynchronously, and every span then waits for it before it is exported.
  const detected = resourceFromAttributes({ 'host.name': hostname() }).merge(detectResources({ detectors: [serviceInstanceIdDetector, envDetector] }));
  const named = process.env.OTEL_SERVICE_NAME?.trim() || detected.attributes[ATTR_SERVICE_NAME];
  return detected.merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: typeof named === 'string' && named !== '' ? named : 'sleeve-gateway' }));
}

/** The flush at SIGTERM waits this long at most: the exporter's own timeout (10 s) held the exit past its bound. */
const FLUSH_WITHIN_MS = 1_000;

export function startTracing(options: { exporter?: SpanExporter } = {}): TracingHandle {
  const processor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource: instanceResource(), spanProcessors: [processor] });
  provider.register();
  markTracingOn();
  readTraceIdsFrom(activeTraceId);
  return {
    async shutdown() {
      markTracingOn(false);
      readTraceIdsFrom(undefined);
      await within(provider.shutdown(), FLUSH_WITHIN_MS, () => undefined);
    },
  };
}
