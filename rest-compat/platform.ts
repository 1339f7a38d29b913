/** The decision platform (issue 6): /merchants, /merchants/:id/3ds-recommendation, /v2/accounts/*. STUB: its issue replaces this file. */
import type { RestDeps } from './api.ts';
import type { Route } from './routes.ts';

export function createPlatformRoutes(_deps: RestDeps): Route[] {
  return [];
}
