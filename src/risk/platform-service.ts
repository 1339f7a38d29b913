/**
 * The decision platform (issue 6): merchants and 3DS enrollment (merchant-service.ts), item-listing and
 * profile-access decisions (decision-service.ts), accounts and staff review (review-service.ts), behind one face.
 */
import { createDecisionService, type DecisionService } from './decision-service.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { createMerchantService, type MerchantService } from './merchant-service.ts';
import type { OrderService } from '../orders/order-service.ts';
import type { OrderStaffService } from '../orders/staff-service.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import { createReviewService, type ReviewService } from './review-service.ts';
import type { SiteService } from '../sites/site-service.ts';

export interface PlatformService extends MerchantService, DecisionService, ReviewService {}

export function createPlatformService(
  deps: ServiceDeps & { sites: SiteService; orders: OrderService; staff: OrderStaffService; payments: PaymentService },
): PlatformService {
  return { ...createMerchantService(deps), ...createDecisionService(deps), ...createReviewService(deps) };
}
