/**
 * Assembles the REST door: every documented path of documents 1, 2 and 3, plus the pages and the images the
 * responses link to. Each area lists its own routes in its own file.
 */
import { CorsPolicy } from '../src/kernel/cors.ts';
import { createAgentsRoutes } from './agents.ts';
import { createAssetHandlers } from './assets.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import { createNotificationsRoutes } from './notifications.ts';
import { createOperationsRoutes, type MetricsEndpoint } from './operations.ts';
import { createOrderingHandlers } from './ordering.ts';
import { createPages } from './pages.ts';
import { createPaymentsRoutes } from './payments.ts';
import { createPlatformRoutes } from './platform.ts';
import { createWebhookRoutes } from './webhooks.ts';
import type { RestDeps } from './rest-deps.ts';
import { createRouter, notFound, type Route, type RoutedRequest, type Router } from './routes.ts';

/** The REST door: answers every request that is not GraphQL's, a path no route has with its family's 404. */
export interface RestApi extends Router {
  handle(request: HttpRequest): Promise<HttpResponse>;
}

/** `metrics`: what `/metrics` serves; absent (METRICS=off), the path is not served. */
export function createRestApi(deps: RestDeps & { metrics?: MetricsEndpoint }): RestApi {
  const ordering = createOrderingHandlers(deps);
  const assets = createAssetHandlers(deps);
  const pages = createPages(deps.publicUrl);
  const router = createRouter(
    [
      // Document 1 §4
      { method: 'GET', path: '/api/sleeve-options', handler: ordering.sleeveOptions },
      { method: 'POST', path: '/api/orders', handler: ordering.createOrder },
      { method: 'POST', path: '/api/orders/:orderNumber/pay', handler: ordering.payOrder },
      { method: 'GET', path: '/api/orders/:orderNumber', handler: ordering.lookupOrder },
      { method: 'GET', path: '/llms-full.txt', handler: ordering.eventInfo },
      // Linked from SleeveOptions.*Choices[].image
      { method: 'GET', path: '/images/options/:kind/:file', handler: assets.optionImage },
      // Order.previewImage and the REST order's previewImage: what will be stitched (issue 18)
      { method: 'GET', path: '/preview.svg', handler: assets.preview },
      // The page at payUrl
      { method: 'GET', path: '/pay/:orderNumber', handler: pages.pay },
      // The attendees' ordering page and the staff console (issue 8)
      { method: 'GET', path: '/', handler: pages.orderPage },
      { method: 'GET', path: '/staff', handler: pages.staffConsole },
      // The merchant portal (issue 19)
      { method: 'GET', path: '/portal', handler: pages.portal },
      // The pickup display and the client library the pages load
      { method: 'GET', path: '/display', handler: pages.display },
      { method: 'GET', path: '/assets/graphql-ws.js', handler: pages.graphqlWs },
      { method: 'GET', path: '/assets/app/:file', handler: pages.appAsset },
      { method: 'GET', path: '/favicon.ico', handler: pages.favicon },
      // Documents 2 and 3, docs/platform.md, docs/notifications.md
      ...createPaymentsRoutes(deps),
      ...createPlatformRoutes(deps),
      ...createNotificationsRoutes(deps),
      // Merchant webhooks (docs/merchant-webhooks.md)
      ...createWebhookRoutes(deps),
      // The operator's (docs/operations.md)
      ...createOperationsRoutes(deps.readiness, deps.metrics),
      // The agents' entry points (docs/agents.md): /openapi.json is generated from this very table
      ...createAgentsRoutes(deps.publicUrl, deps.config.holdSeconds, () => router.routes()),
    ],
    deps,
  );
  return new CorsRouter(router, new CorsPolicy(deps.config.corsOrigins));
}

/**
 * CORS on every REST answer (docs/edge.md#cors): a preflight (OPTIONS) of a known path answers 204 with the path's
 * methods and the headers a client may send; every other answer to a request with an Origin gets the policy's
 * headers, the 404 of a path no route has included (so a page on another origin can read it). A class: no closures per request (see node-adapter.ts on tsx's __name).
 */
class CorsRouter implements RestApi {
  constructor(
    private readonly router: Router,
    private readonly cors: CorsPolicy,
  ) {}

  async handle(request: HttpRequest): Promise<HttpResponse> {
    if (request.method === 'OPTIONS') {
      const methods = this.router.methods(request.path);
      if (methods) {
        (request as RoutedRequest).route = this.router.template(request.path) ?? undefined;
        return { status: 204, headers: this.cors.preflight(request.origin, methods, request.headers['access-control-request-headers']), body: '' };
      }
    }
    const response = (request.method !== 'OPTIONS' && (await this.router.handle(request))) || notFound(request);
    const origin = request.origin;
    if (origin !== undefined) Object.assign(response.headers, this.cors.headers(origin));
    return response;
  }

  methods(path: string): string[] | null {
    return this.router.methods(path);
  }

  template(path: string): string | null {
    return this.router.template(path);
  }

  routes(): Array<Pick<Route, 'method' | 'path'>> {
    return this.router.routes();
  }
}
