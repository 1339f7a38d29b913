/**
 * The decision platform (issue 6): merchants, 3DS enrollment, item-listing and profile-access decisions, accounts
 * and staff review. STUB: the decision-platform issue replaces this file.
 */
import type { ServiceDeps } from './deps.ts';
import type { OrderService } from './order-service.ts';
import type { PaymentService } from './payment-service.ts';
import type { SiteService } from './site-service.ts';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PlatformService {}

export function createPlatformService(
  _deps: ServiceDeps & { sites: SiteService; orders: OrderService; payments: PaymentService },
): PlatformService {
  return {};
}
