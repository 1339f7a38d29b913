/**
 * Tracing (docs/operations.md#tracing, CONTRACT §7): OpenTelemetry spans for every HTTP request, GraphQL operation,
 * database transaction, processor call and webhook delivery. The code here uses only `@opentelemetry/api`; the SDK
 * (tracing-sdk.ts) is imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and until then every helper below is a
 * plain call — not even a no-op span is made, so a laptop run pays one boolean test per helper.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type SpanContext } from '@opentelemetry/api';

const tracer = trace.getTracer('sleeve-gateway');
let on = false;

/** Set once the SDK is registered (tracing-sdk.ts); read when each gateway is built and on every traced call. */
export function markTracingOn(value = true): void {
  on = value;
}

export function tracingOn(): boolean {
  return on;
}

/** The context a request carries (W3C `traceparent`/`tracestate`), for its server span's parent. */
export function contextFromHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/**
 * The active span's W3C `traceparent`, kept with work done later on its behalf (a notification queued by a request,
 * delivered after the commit or hours later: docs/operations.md#tracing). Null when tracing is off or nothing is active.
 */
export function activeTraceParent(): string | null {
  if (!on || trace.getActiveSpan() === undefined) return null;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/**
 * The context to start deferred work's span in: under the `traceparent` kept for it, else a root. Never the context
 * active by chance: a dispatcher woken inside some other request's call would otherwise hang its span there.
 */
export function deferredContext(traceParent: string | null | undefined): Context {
  return traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
}

/**
 * Where deferred work done out of turn starts its span (a redelivery, a test event): under `askedBy`, the request that
 * asked for it, linked to `queuedUnder`, the span its work was first kept for; with nobody asking, under that one.
 */
export function deferredOrigin(queuedUnder: string | null | undefined, askedBy: string | null | undefined): { parent: Context; linkedTo?: SpanContext } {
  if (!askedBy) return { parent: deferredContext(queuedUnder) };
  const first = queuedUnder ? trace.getSpanContext(deferredContext(queuedUnder)) : undefined;
  return { parent: deferredContext(askedBy), ...(first ? { linkedTo: first } : {}) };
}

/** `headers` with the active span's `traceparent` (and `tracestate`) added, for a call out; the same object when off. */
export function withTraceContext(headers: Record<string, string>): Record<string, string> {
  if (!on) return headers;
  const carrier = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `work` inside a new active span; ends it with an error status when `work` throws, and rethrows. `linkedTo`:
 * spans it follows from without being their child (a WebSocket operation and the upgrade that opened its socket).
 */
export async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => Promise<T>, parent?: Context, linkedTo?: SpanContext): Promise<T> {
  if (!on) return work(NO_SPAN);
  const options = { kind, attributes, ...(linkedTo ? { links: [{ context: linkedTo }] } : {}) };
  return tracer.startActiveSpan(name, options, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A span started now and ended by the caller (a transaction's begin and commit are separate calls; a WebSocket
 * upgrade is answered by ws's callbacks), under `parent` when given, else the active span.
 */
export function startSpan(name: string, kind: SpanKind, attributes: Attributes, parent?: () => Context): Span | undefined {
  return on ? tracer.startSpan(name, { kind, attributes }, parent?.()) : undefined;
}

export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}

/** The active trace's id, for log lines; undefined when tracing is off or no span is active. */
export function activeTraceId(): string | undefined {
  if (!on) return undefined;
  const span = trace.getActiveSpan();
  return span?.spanContext().traceId;
}

export { SpanKind, SpanStatusCode };

/** Handed to `work` while tracing is off: every call on it does nothing. */
const NO_SPAN = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });
