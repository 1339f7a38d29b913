/**
 * The route table: method + exact path → handler. Greppable against the spec documents; every path here is one
 * a document lists (or CONTRACT adds). Unknown paths answer a JSON 404, a known path with the wrong method 405.
 */
import type { Logger } from '../src/logger.ts';
import type { Services } from '../src/services/services.ts';
import { toRestResponse } from './errors.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import { json } from './http.ts';

export type Handler = (request: HttpRequest, ...params: string[]) => Promise<HttpResponse>;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path with `:name` segments, e.g. `/api/orders/:orderNumber/pay`. */
  path: string;
  handler: Handler;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
}

function compile(route: Route): CompiledRoute {
  const source = route.path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')))
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}$`, 'u') };
}

export interface Router {
  /** Answers the request, or null when no route has this path (the caller may try another door). */
  handle(request: HttpRequest): Promise<HttpResponse | null>;
}

export function createRouter(routes: Route[], deps: { logger: Logger; services: Services }): Router {
  const compiled = routes.map(compile);
  // Exact paths without parameters resolve through a map; the rest are tried in order.
  const exact = new Map<string, CompiledRoute[]>();
  const patterned: CompiledRoute[] = [];
  for (const route of compiled) {
    if (route.path.includes(':')) patterned.push(route);
    else exact.set(route.path, [...(exact.get(route.path) ?? []), route]);
  }

  function match(path: string): Array<{ route: CompiledRoute; params: string[] }> {
    const direct = exact.get(path);
    if (direct) return direct.map((route) => ({ route, params: [] }));
    const found: Array<{ route: CompiledRoute; params: string[] }> = [];
    for (const route of patterned) {
      const m = route.pattern.exec(path);
      if (m) found.push({ route, params: m.slice(1).map(safeDecode) });
    }
    return found;
  }

  return {
    async handle(request) {
      const candidates = match(request.path);
      if (candidates.length === 0) return null;
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const hit = candidates.find((c) => c.route.method === method);
      if (!hit) {
        const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
        return json(
          405,
          { ok: false, code: 'bad_request', error: `${request.method} is not allowed on ${request.path}. Use ${allow}.`, retryable: false },
          { allow },
        );
      }
      try {
        return await hit.route.handler(request, ...hit.params);
      } catch (error) {
        return toRestResponse(error, deps.logger, deps.services.orders);
      }
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function notFound(request: HttpRequest): HttpResponse {
  return json(404, { ok: false, code: 'not_found', error: `There is nothing at ${request.method} ${request.path}.`, retryable: false });
}
