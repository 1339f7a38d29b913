/**
 * Merchant webhook endpoints (migration 0010, docs/merchant-webhooks.md): every site's own endpoints, one delivery
 * per message and endpoint, and each attempt of a delivery. The bootstrap endpoint (MERCHANT_ENDPOINT) is not a row
 * here: its deliveries are the outbox rows themselves, exactly as before (outbox-tables.ts).
 */
import type { Generated, Selectable } from 'kysely';
import type { OutboxStatus } from './outbox-tables.ts';

/** An outbox row's life: DROPPED, an evidence request with nothing left to ask when it was due (docs/notifications.md#decided-at-send-time). */
export type DeliveryStatus = OutboxStatus;

export interface WebhookEndpointTable {
  id: string;
  site_id: string;
  url: string;
  description: string;
  /** JSON array of event types; `[]` means every type. */
  event_types: string;
  enabled: number;
  /** The `whsec_…` secret, sealed under VAULT_KEY (vault-crypto.ts): shown once, on creation and rotation. */
  secret_sealed: string;
  /** The secret before the last rotation, sealed, still signing until `previous_secret_until` (24 h overlap). */
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  /** The secret before that one, still signing until `older_secret_until` after a second rotation inside 24 h (migration 0014). */
  older_secret_sealed: string | null;
  older_secret_until: number | null;
  /** Why it was disabled (`410 Gone`, continuous failure, by the site); null while enabled. */
  disabled_reason: string | null;
  /** The first attempt of the current run of failures; null after a success. */
  failing_since: number | null;
  /** A `Retry-After` on 429/503: nothing is sent to this endpoint before it. */
  throttled_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveryTable {
  id: string;
  /** The outbox message (its id is the `webhook-id` at every endpoint); for a test event, a message of its own. */
  message_id: string;
  endpoint_id: string;
  site_id: string;
  /** The path, e.g. `/token-updated`, or `/webhook-test` for a test event. */
  path: string;
  /** Only a test event's body is kept here; a notification's body is its outbox row's. */
  body: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  round_attempts: Generated<number>;
  /** Counted up whenever it is made due again (redeliver, recover, enabled): an attempt in flight then does not overwrite it. */
  version: Generated<number>;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  last_error: string | null;
  /**
   * The `traceparent` of the request that made it due out of turn (migration 0017): a test event, a redeliver, a
   * recover, the endpoint enabled again. Null: its attempts go under its message's `trace_parent`; set, under this,
   * linked to the message's.
   */
  trace_parent: string | null;
}

export interface WebhookDeliveryAttemptTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
}

export interface EndpointTables {
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
}

export type EndpointRow = Selectable<WebhookEndpointTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
export type DeliveryAttemptRow = Selectable<WebhookDeliveryAttemptTable>;
