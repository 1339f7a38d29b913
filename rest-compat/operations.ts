/**
 * The operator's paths (docs/operations.md, CONTRACT §7): `GET /health`, alive while the process runs,
 * `GET /ready`, whether this instance should get traffic now, and `GET /metrics`, Prometheus's text exposition
 * (with METRICS=on, the default). None is rate limited (a prober or Prometheus calls them every few seconds from
 * one address) and none is cached.
 */
import type { Registry } from 'prom-client';
import type { Readiness } from '../src/operations/readiness.ts';
import { secretsEqual } from '../src/kernel/tokens.ts';
import { json, text, type HttpRequest, type HttpResponse } from './http.ts';
import type { Route } from './routes.ts';

const NO_STORE = { 'cache-control': 'no-store' };

/** What `/metrics` serves: this gateway's registry, and METRICS_TOKEN (null: anyone may read it). */
export interface MetricsEndpoint {
  registry: Registry;
  token: string | null;
}

export function createOperationsRoutes(readiness: Readiness, metrics?: MetricsEndpoint): Route[] {
  const routes: Route[] = [
    { method: 'GET', path: '/health', handler: async (): Promise<HttpResponse> => json(200, { status: 'ok' }, NO_STORE) },
    {
      method: 'GET',
      path: '/ready',
      handler: async (): Promise<HttpResponse> => {
        const { ready, checks } = await readiness.report();
        return json(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks }, NO_STORE);
      },
    },
  ];
  if (metrics) routes.push({ method: 'GET', path: '/metrics', handler: (request) => metricsAnswer(request, metrics) });
  return routes;
}

/** The exposition, or 401 when METRICS_TOKEN is set and the request does not carry it (compared in constant time). */
async function metricsAnswer(request: HttpRequest, { registry, token }: MetricsEndpoint): Promise<HttpResponse> {
  if (token !== null && !bearerMatches(request.headers.authorization, token)) {
    const refused = json(401, { ok: false, code: 'unauthorized', error: 'Send Authorization: Bearer METRICS_TOKEN to read the metrics.', retryable: false }, NO_STORE);
    refused.headers['www-authenticate'] = 'Bearer realm="metrics"';
    return refused;
  }
  const response = text(200, await registry.metrics(), registry.contentType);
  Object.assign(response.headers, NO_STORE);
  return response;
}

function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/iu.exec(authorization?.trim() ?? '');
  // Hashed, then compared in constant time (src/kernel/tokens.ts): neither the token nor its length leaks.
  return secretsEqual(match?.[1] ?? '', token);
}
