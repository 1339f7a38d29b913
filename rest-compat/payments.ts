/** Payments and tokenization (issue 5): /api/payments, /v1/tokenization/*, /v1/account-updater/card/update, and the pay page's tokenization path. STUB: its issue replaces this file. */
import type { RestDeps } from './api.ts';
import type { Route } from './routes.ts';

export function createPaymentsRoutes(_deps: RestDeps): Route[] {
  return [];
}
