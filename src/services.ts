/**
 * Builds every area's services from the shared ports, in the order they depend on each other. The doors receive
 * this object and nothing lower; an area reaches another only through what is handed to it here.
 */
import { createDisputeService, type DisputeService } from './disputes/dispute-service.ts';
import type { ServiceDeps } from './kernel/service-deps.ts';
import { createWebhookService, type WebhookService } from './notifications/endpoint-service.ts';
import { createNotificationService, type NotificationService } from './notifications/notification-service.ts';
import { createEventInfoService, type EventInfoService } from './orders/event-info-service.ts';
import type { HoldTicker } from './orders/hold-ticker.ts';
import { createLiveService, type LiveService } from './orders/live-service.ts';
import { createOptionsService, type OptionsService } from './orders/options-service.ts';
import { createOrderService, type OrderService } from './orders/order-service.ts';
import { createOrderStaffService, type OrderStaffService } from './orders/staff-service.ts';
import { createPaymentService, type PaymentService } from './payments/payment-service.ts';
import { createPlatformService, type PlatformService } from './risk/platform-service.ts';
import { createWebhookChallengeService, type WebhookChallengeService } from './sites/challenge-service.ts';
import { createSiteService, type SiteService } from './sites/site-service.ts';

export interface Services {
  options: OptionsService;
  orders: OrderService;
  /** Staff fulfilment (advance, collect, cancel, list) and the public pickup board. */
  staff: OrderStaffService;
  eventInfo: EventInfoService;
  live: LiveService;
  /** Document 3 credentials: sites and their API keys. */
  sites: SiteService;
  /** The processor's webhook verification challenge (document 2 §4). */
  webhookChallenge: WebhookChallengeService;
  /** /api/payments, the vault and tokenization, the sandbox processor, refunds. */
  payments: PaymentService;
  /** Merchants, 3DS enrollment, risk decisions, accounts, staff review. */
  platform: PlatformService;
  /** Claims and the evidence submitted against them. */
  disputes: DisputeService;
  /** Outbox deliveries for staff: list, redeliver, the live stream of attempts. */
  notifications: NotificationService;
  /** Merchant webhooks: every site's own endpoints, their secrets, deliveries, recovery and tests; staff listings and streams. */
  webhooks: WebhookService;
}

export function createServices(deps: ServiceDeps & { ticker: HoldTicker }): Services {
  const sites = createSiteService(deps);
  const payments = createPaymentService({ ...deps, sites });
  const options = createOptionsService(deps);
  const orders = createOrderService({ ...deps, options, payments });
  const staff = createOrderStaffService({ ...deps, refunds: payments });
  const platform = createPlatformService({ ...deps, sites, orders, staff, payments });
  return {
    options,
    orders,
    staff,
    eventInfo: createEventInfoService(deps),
    live: createLiveService({ ...deps, orders, options, staff }),
    sites,
    webhookChallenge: createWebhookChallengeService({ ...deps, sites, platform, orders }),
    payments,
    platform,
    disputes: createDisputeService({ ...deps, sites }),
    notifications: createNotificationService(deps),
    webhooks: createWebhookService(deps),
  };
}
