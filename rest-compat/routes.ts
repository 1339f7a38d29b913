/**
 * The route table: method + exact path → handler. Greppable against the spec documents; every path here is one
 * a document lists (or CONTRACT adds). Unknown paths answer a JSON 404 (a browser's broken pay link, a page:
 * notFound), a known path with the wrong method 405.
 */
import { withRequestId, type Logger } from '../src/kernel/logger.ts';
import { isUnaskedCrossOriginPost } from '../src/kernel/media-type.ts';
import { pageHeaders } from '../src/pages/page-headers.ts';
import { renderPayLinkNotValidPage } from '../src/pages/pay-page.ts';
import type { Services } from '../src/services.ts';
import { toRestResponse } from './errors.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import { methodNotAllowedResponse, notFoundResponse, unaskedCrossOriginPostResponse } from './path-family.ts';

export type Handler = (request: HttpRequest, ...params: string[]) => Promise<HttpResponse>;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  /**
   * Answers the request, or null when no route has this path (the caller may try another door). A path some route
   * has gets its template written on the request as `route` (RoutedRequest), for the request line and metrics.
   */
  handle(request: HttpRequest): Promise<HttpResponse | null>;
  /** The methods a path accepts, or null when no route has it: what a CORS preflight allows (docs/edge.md#cors). */
  methods(path: string): string[] | null;
  /** The template of the routes that have this path (`/api/orders/:orderNumber`), or null when none has it. */
  template(path: string): string | null;
  /** Every route's method and template, as the table lists them: what /openapi.json describes (docs/agents.md#openapi-document). */
  routes(): Array<Pick<Route, 'method' | 'path'>>;
}

/**
 * A request as the router leaves it: `route` is its path's template (docs/operations.md#request-logs);
 * `requestId`, set by the server, names the request on the router's own error line.
 */
export interface RoutedRequest extends HttpRequest {
  route?: string;
  requestId?: string;
}

interface Match {
  route: CompiledRoute | undefined;
  params: string[];
  /** Methods the path accepts, for a 405's `Allow`. */
  methods: string[];
  /** The path's template, whichever method: a 405 and a preflight are labelled with it too. */
  template: string;
}

const NO_PARAMS: string[] = [];

/**
 * Matching allocates nothing per request for exact paths and creates no closures: this runs on every request,
 * and under tsx every per-request closure costs a `__name` call (see node-adapter.ts).
 */
export function createRouter(routes: Route[], deps: { logger: Logger; services: Services }): Router {
  const compiled = routes.map(compile);
  // Exact paths resolve through a map of path → method → route; patterned ones are tried in order.
  const exact = new Map<string, Map<string, CompiledRoute>>();
  const patterned: CompiledRoute[] = [];
  for (const route of compiled) {
    if (route.path.includes(':')) {
      patterned.push(route);
    } else {
      const byMethod = exact.get(route.path) ?? new Map<string, CompiledRoute>();
      byMethod.set(route.method, route);
      exact.set(route.path, byMethod);
    }
  }

  function match(path: string, method: string): Match | null {
    const byMethod = exact.get(path);
    if (byMethod) return { route: byMethod.get(method), params: NO_PARAMS, methods: [...byMethod.keys()], template: path };
    let found: Match | null = null;
    for (const route of patterned) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      found ??= { route: undefined, params: NO_PARAMS, methods: [], template: route.path };
      found.methods.push(route.method);
      if (!found.route && route.method === method) {
        found.route = route;
        found.params = m.slice(1).map(safeDecode);
      }
    }
    return found;
  }

  async function handle(request: HttpRequest): Promise<HttpResponse | null> {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const found = match(request.path, method);
    if (!found) return null;
    (request as RoutedRequest).route = found.route?.path ?? found.template;
    if (!found.route) {
      // In the path family's own error shape (docs/edge.md#bounds).
      return methodNotAllowedResponse(request.method, request.path, [...new Set(found.methods)].join(', '));
    }
    // Before the route reads a body or a credential (docs/edge.md#no-cross-site-writes).
    if (isUnaskedCrossOriginPost(request.method, request.headers, request.origin)) return unaskedCrossOriginPostResponse(request.path);
    try {
      return await found.route.handler(request, ...found.params);
    } catch (error) {
      // Logged at once, for a request that may run outside the request scope (src/server.ts): the id named here.
      return withRequestId((request as RoutedRequest).requestId, toRestResponse, error, deps.logger);
    }
  }

  function methods(path: string): string[] | null {
    const found = match(path, '');
    return found ? [...new Set(found.methods)] : null;
  }

  function template(path: string): string | null {
    return match(path, '')?.template ?? null;
  }

  const listed = routes.map(({ method, path }) => ({ method, path }));
  return { handle, methods, template, routes: () => listed };
}

/** A segment decoded; kept as sent when it does not decode, or decodes to U+0000, which no id holds (unicode-text.ts). */
function safeDecode(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded.includes('\u0000') ? segment : decoded;
  } catch {
    return segment;
  }
}

/**
 * 404 in the path family's own error shape (docs/edge.md#bounds). Except for a browser asking for a page under /pay/
 * that is none (a pay link a chat app took with the punctuation after it: `/pay/1001)`, `/pay/1001/`): the pay page's
 * sentence for a link that is not valid, still 404. A client asking for JSON gets the JSON 404 as before.
 */
export function notFound(request: HttpRequest): HttpResponse {
  if (isBrokenPayLink(request)) return payLinkNotValid();
  return notFoundResponse(request.method, request.path);
}

function isBrokenPayLink(request: HttpRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.path.startsWith('/pay/') && (request.headers.accept ?? '').includes('text/html');
}

/** Static (nothing from the address in it), with the pay page's headers: never framed, no referrer, not cached. */
function payLinkNotValid(): HttpResponse {
  const response: HttpResponse = { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: renderPayLinkNotValidPage() };
  // It shows no preview image, so its images may come from this server alone ('self', not PUBLIC_URL's origin).
  Object.assign(response.headers, pageHeaders({ private: true, noReferrer: true }, "'self'"), { 'cache-control': 'no-store' });
  return response;
}
