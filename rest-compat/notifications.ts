/** Notifications (issue 7): the evidence operations and the processor verification webhook. STUB: its issue replaces this file. */
import type { RestDeps } from './api.ts';
import type { Route } from './routes.ts';

export function createNotificationsRoutes(_deps: RestDeps): Route[] {
  return [];
}
