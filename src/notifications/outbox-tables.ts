/** The notification outbox (migration 0003): every document 2 notification and each attempt to deliver it. */
import type { Generated } from 'kysely';

/**
 * DROPPED: never sent, because at send time it had nothing left to say (an evidence request whose every type was
 * given meanwhile; docs/notifications.md#decided-at-send-time). `last_error` says why.
 */
export type OutboxStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DROPPED';

export interface OutboxNotificationTable {
  /** Also the Standard Webhooks `webhook-id`: kept across retries and redeliveries (docs/notifications.md#message-ids). */
  id: string;
  /**
   * The site the notification belongs to (migration 0010, docs/merchant-webhooks.md#ownership). Only the bootstrap
   * site's go to MERCHANT_ENDPOINT; every site's go to its own endpoints (endpoint-tables.ts).
   */
  site_id: string | null;
  /** The path at MERCHANT_ENDPOINT, e.g. `/token-updated`. */
  path: string;
  /**
   * The body as JSON, written in the same transaction as the change that caused it. A body with secrets (a vault
   * token) is kept sealed under VAULT_KEY with a masked copy for staff (sealed-body.ts,
   * docs/notifications.md#secrets-in-the-outbox).
   */
  body: string;
  status: OutboxStatus;
  /** What the notification is about, for staff filters: a masked token, an account id, an order id, a claim id. */
  subject: string | null;
  /** Every attempt ever made (attempt numbers keep counting across redeliveries). */
  attempt_count: number;
  /** Attempts in the current round of NOTIFY_RETRY_SCHEDULE; a redelivery starts a new round. */
  round_attempts: Generated<number>;
  /** When the next attempt is due; null once DELIVERED, FAILED or DROPPED. */
  next_attempt_at: number | null;
  /**
   * Staff redeliveries asked for (migration 0009). An attempt records its outcome as the row's new state only while
   * this is what it was when the row was leased (docs/notifications.md#redelivery-during-an-attempt).
   */
  redeliveries: Generated<number>;
  /** The dispatcher instance holding the row, and until when (a lease: a dead instance's claim runs out). */
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  last_error: string | null;
  /**
   * The `traceparent` of the span that queued it (migration 0016), null when none: its deliveries' spans go under
   * it (docs/operations.md#tracing).
   */
  trace_parent: string | null;
  /**
   * The `traceparent` of the staff redeliver that made it due again (migration 0017), null when none: the attempts
   * since go under that request, linked to `trace_parent`'s.
   */
  redelivery_trace_parent: string | null;
}

export interface OutboxAttemptTable {
  id: string;
  notification_id: string;
  /** 1 for the first attempt. */
  attempt: number;
  started_at: number;
  duration_ms: number;
  /** The merchant's HTTP status; null when no answer came (timeout, refused connection). */
  status_code: number | null;
  /** The first bytes of the response body, bounded. */
  response_excerpt: string | null;
  error: string | null;
}

export interface OutboxTables {
  outbox_notifications: OutboxNotificationTable;
  outbox_attempts: OutboxAttemptTable;
}
