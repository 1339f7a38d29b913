/**
 * Notification deliveries, claims and evidence (issue 7): staff listing and redelivery, openClaim, evidence by file
 * and by data points, the processor webhook challenge. STUB: the notifications issue replaces this file.
 */
import type { ServiceDeps } from './deps.ts';
import type { SiteService } from './site-service.ts';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NotificationService {}

export function createNotificationService(_deps: ServiceDeps & { sites: SiteService }): NotificationService {
  return {};
}
