/**
 * The OpenTelemetry SDK, registered only when OTEL_EXPORTER_OTLP_ENDPOINT is set (main.ts imports this module then,
 * and only then). Spans go out in batches over OTLP/HTTP to the standard endpoint variables (the exporter reads
 * OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT itself); the service is named by OTEL_SERVICE_NAME or
 * `sleeve-gateway`. The W3C trace-context propagator and the AsyncLocalStorage context manager come with
 * `register()`. Tests pass their own exporter (an in-memory one) and a simple processor.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { readTraceIdsFrom } from '../kernel/logger.ts';
import { activeTraceId, markTracingOn } from './tracing.ts';

export interface TracingHandle {
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export function startTracing(options: { exporter?: SpanExporter } = {}): TracingHandle {
  const processor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME?.trim() || 'sleeve-gateway' }),
    spanProcessors: [processor],
  });
  provider.register();
  markTracingOn();
  readTraceIdsFrom(activeTraceId);
  return {
    async shutdown() {
      markTracingOn(false);
      readTraceIdsFrom(undefined);
      await provider.shutdown();
    },
  };
}
