/**
 * Tracing end to end (docs/operations.md#tracing): a real process with OTEL_EXPORTER_OTLP_ENDPOINT set sends its
 * spans over OTLP/HTTP to a collector (here a bare node:http receiver), the caller's trace id on them, and flushes
 * them on SIGTERM.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { startProcess } from '../support/process.ts';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

/** A bare OTLP/HTTP receiver; `answers: false`, one that takes the request and never answers (a hung collector). */
async function collector({ answers = true } = {}): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push(`${req.url} ${body}`);
    if (answers) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  afterThisTest(async () => void server.closeAllConnections());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterThisTest(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

async function optionsWithTraceparent(url: string): Promise<void> {
  const response = await fetch(`${url}/api/sleeve-options`, { headers: { traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` } });
  expect(response.status).toBe(200);
}

describe('OTLP export', () => {
  it('sends the spans of a request, under the caller\'s trace, to OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const otlp = await collector();
    const server = await startProcess({
      DATABASE_URL: ':memory:',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'sleeve-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=event-hall',
    });
    await optionsWithTraceparent(server.url);
    // SIGTERM flushes the batch before the process exits.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const traces = otlp.bodies.filter((b) => b.startsWith('/v1/traces '));
    expect(traces.length).toBeGreaterThan(0);
    const all = traces.join('\n');
    expect(all).toContain(TRACE_ID);
    expect(all).toContain('GET /api/sleeve-options');
    expect(all).toContain('sleeve-test');
    // Which instance served it, and the operator's own attributes (an operator's review: only service.name went out,
    // the same for every instance, and OTEL_RESOURCE_ATTRIBUTES was ignored).
    expect(all).toContain('service.instance.id');
    expect(all).toContain('event-hall');
  });

  it('exits within the shutdown bound when the collector takes the spans and never answers', { timeout: 20_000 }, async () => {
    const otlp = await collector({ answers: false });
    const server = await startProcess({ DATABASE_URL: ':memory:', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
    await optionsWithTraceparent(server.url);
    server.child.kill('SIGTERM');
    // docs/running.md#shutdown: gone within 6 s. The exporter's own timeout (10 s) held the exit (an operator's review).
    const bound = new Promise((resolve) => setTimeout(() => resolve('still running after 6 s'), 6_000).unref());
    expect(await Promise.race([server.exited, bound])).toBe(0);
    expect(otlp.bodies.some((b) => b.startsWith('/v1/traces '))).toBe(true);
  });
});
