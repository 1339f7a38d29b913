/**
 * Assembles the REST door: every documented path of documents 1, 2 and 3, plus the pages and the images the
 * responses link to. Each area lists its own routes in its own file.
 */
import { createAssetHandlers } from './assets.ts';
import { createNotificationsRoutes } from './notifications.ts';
import { createOrderingHandlers } from './ordering.ts';
import { pages } from './pages.ts';
import { createPaymentsRoutes } from './payments.ts';
import { createPlatformRoutes } from './platform.ts';
import type { RestDeps } from './rest-deps.ts';
import { createRouter, type Router } from './routes.ts';

export type { RestDeps } from './rest-deps.ts';

export function createRestApi(deps: RestDeps): Router {
  const ordering = createOrderingHandlers(deps);
  const assets = createAssetHandlers(deps);
  return createRouter(
    [
      // Document 1 §4
      { method: 'GET', path: '/api/sleeve-options', handler: ordering.sleeveOptions },
      { method: 'POST', path: '/api/orders', handler: ordering.createOrder },
      { method: 'POST', path: '/api/orders/:orderNumber/pay', handler: ordering.payOrder },
      { method: 'GET', path: '/api/orders/:orderNumber', handler: ordering.lookupOrder },
      { method: 'GET', path: '/llms-full.txt', handler: ordering.eventInfo },
      // Linked from SleeveOptions.*Choices[].image
      { method: 'GET', path: '/images/options/:kind/:file', handler: assets.optionImage },
      // The page at payUrl
      { method: 'GET', path: '/pay/:orderNumber', handler: pages.pay },
      // The attendees' ordering page and the staff console (issue 8)
      { method: 'GET', path: '/', handler: pages.orderPage },
      { method: 'GET', path: '/staff', handler: pages.staffConsole },
      // The pickup display and the client library the pages load
      { method: 'GET', path: '/display', handler: pages.display },
      { method: 'GET', path: '/assets/graphql-ws.js', handler: pages.graphqlWs },
      { method: 'GET', path: '/assets/app/:file', handler: pages.appAsset },
      // Documents 2 and 3, docs/platform.md, docs/notifications.md
      ...createPaymentsRoutes(deps),
      ...createPlatformRoutes(deps),
      ...createNotificationsRoutes(deps),
    ],
    deps,
  );
}
