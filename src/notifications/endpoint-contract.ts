/**
 * What the webhook endpoints service offers (docs/merchant-webhooks.md): the site's own endpoints over the REST API
 * and the portal, and staff's view of every site's. The implementation is endpoint-service.ts.
 */
import type { DeliveryStatus } from './endpoint-tables.ts';
import type { CreatedEndpoint, EndpointDisabledNotice, Page, RotatedSecret, WebhookDelivery, WebhookEndpoint } from './endpoint-view.ts';

export const ENDPOINTS_PER_SITE_MAX = 50;
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

export interface DeliveryQuery {
  /** Only these statuses (none: all). */
  statuses?: readonly DeliveryStatus[] | null;
  first?: number | null;
  /** A cursor from an earlier page: the deliveries before it (newest first). */
  after?: string | null;
}

export interface WebhookService {
  /** Registers an endpoint of `siteId` from a creation body (`{url, description?, eventTypes?, enabled?}`); 400/422 on bad input. The answer carries the secret, shown only here and by rotateSecret. */
  create(siteId: string, input: unknown): Promise<CreatedEndpoint>;
  /** Every endpoint of `siteId`, oldest first, without secrets. */
  list(siteId: string): Promise<WebhookEndpoint[]>;
  /** One endpoint of `siteId`; `not_found` for an unknown id or another site's. */
  get(siteId: string, id: string): Promise<WebhookEndpoint>;
  /** Changes any of the creation fields; `enabled: true` also clears the disabled reason, the failure run and the throttle. */
  update(siteId: string, id: string, input: unknown): Promise<WebhookEndpoint>;
  /** Deletes the endpoint with its deliveries and their attempts. */
  remove(siteId: string, id: string): Promise<void>;
  /** A new secret, returned once; for 24 hours deliveries are signed with the new and the old one. */
  rotateSecret(siteId: string, id: string): Promise<RotatedSecret>;
  /** At start: a ConfigError naming VAULT_KEY when no key of this start opens the stored endpoint secrets. */
  checkVaultKey(): Promise<void>;
  /** The endpoint's deliveries, newest first, each with every attempt. */
  deliveries(siteId: string, id: string, query?: DeliveryQuery): Promise<Page<WebhookDelivery>>;
  /**
   * One delivery of the site's endpoint due again now (same `webhook-id`): a new round of the schedule; one waiting for
   * its next attempt, that attempt now; one in flight, again once that attempt is recorded.
   */
  redeliver(siteId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery>;
  /** From a body `{since}` (ISO date-time): every FAILED delivery of the endpoint created since then is due again. Returns how many. */
  recover(siteId: string, id: string, input: unknown): Promise<{ recovered: number }>;
  /** Queues a signed test event (`/webhook-test`, docs/merchant-webhooks.md#test-events) to that endpoint only; refused (422) while it is disabled. */
  sendTest(siteId: string, id: string): Promise<WebhookDelivery>;

  /** Staff: endpoints of every site (or of `siteId`), oldest first, paged. */
  allEndpoints(query?: { siteId?: string | null; first?: number | null; after?: string | null }): Promise<Page<WebhookEndpoint>>;
  /** Staff: one endpoint of any site, or null. */
  endpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Staff: one delivery of any site with its attempts, or null (GraphQL's node(id)). */
  delivery(id: string): Promise<WebhookDelivery | null>;
  /** Staff: an endpoint's deliveries with their attempts, any site; `not_found` for an unknown endpoint. */
  endpointDeliveries(endpointId: string, query?: DeliveryQuery): Promise<Page<WebhookDelivery>>;
  /** Live: every change of a delivery (queued, attempted, made due), on any instance, optionally of one site or endpoint. */
  deliveryEvents(filter?: { siteId?: string | null; endpointId?: string | null }): Promise<AsyncIterable<WebhookDelivery>>;
  /** Live, for staff: each endpoint the dispatcher disables, as it happens. */
  disabledEvents(): Promise<AsyncIterable<EndpointDisabledNotice>>;
}
