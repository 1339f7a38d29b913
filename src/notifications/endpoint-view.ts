/**
 * What the doors show of merchant webhook endpoints and their deliveries (docs/merchant-webhooks.md): never a
 * secret (only creation and rotation return one, beside the view), never a body (a token may be in it).
 */
import { eventTypeOf, type EventType } from './endpoint-rules.ts';
import type { DeliveryAttemptRow, DeliveryRow, DeliveryStatus, EndpointRow } from './endpoint-tables.ts';

/**
 * What a delivery's (and an operator notification's) times mean, as the GraphQL schema and the OpenAPI document
 * describe them: one wording for both doors.
 */
export const TIME_NOTES = {
  nextAttemptAt: 'When the next attempt is due (while one is in flight, when its lease runs out).',
  /** A merchant endpoint's delivery only: an operator notification's endpoint is never disabled. */
  nextAttemptAtWhileDisabled: 'A delivery to a disabled endpoint waits, PENDING, until the endpoint is enabled again, and one to a throttled endpoint until its throttledUntil, so this may lie in the past.',
  deliveredAt: 'When it was last delivered. A redelivery keeps it while the delivery is PENDING again; the next success replaces it.',
} as const;
/** A merchant endpoint delivery's nextAttemptAt, in full. */
export const DELIVERY_NEXT_ATTEMPT_AT = `${TIME_NOTES.nextAttemptAt} ${TIME_NOTES.nextAttemptAtWhileDisabled}`;

export interface WebhookEndpoint {
  id: string;
  siteId: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: EventType[];
  enabled: boolean;
  /** Why it is disabled (`410 Gone`, failing for ENDPOINT_DISABLE_AFTER, by the site); null while enabled. */
  disabledReason: string | null;
  /** Epoch ms of the first failed attempt of the current run of failures; null when the last attempt succeeded. */
  failingSince: number | null;
  /** Epoch ms until which nothing is sent, as its `Retry-After` asked; null when not throttled. */
  throttledUntil: number | null;
  /** Epoch ms until which the secret before the last rotation still signs too; null outside an overlap. */
  previousSecretExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The answer to a creation: the endpoint and its secret, shown this once. */
export interface CreatedEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface RotatedSecret {
  secret: string;
  /** Until when (epoch ms) the old secret signs too. */
  previousSecretExpiresAt: number;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: number;
  durationMs: number;
  /** The endpoint's HTTP status; null when no answer came. */
  statusCode: number | null;
  /** The first 500 characters of the answer. */
  responseExcerpt: string | null;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  /** The `webhook-id`: the message's id, the same at every endpoint it goes to. */
  webhookId: string;
  endpointId: string;
  siteId: string;
  /** One of the five event types, or `webhook-test`. */
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
  lastError: string | null;
  attempts: DeliveryAttempt[];
}

export interface Page<T> {
  items: T[];
  /** Give it back as `after` for the next page; null on the last. */
  endCursor: string | null;
  hasNextPage: boolean;
  totalCount: number;
}

/** A staff notice: an endpoint was disabled by the dispatcher (410, or failing for ENDPOINT_DISABLE_AFTER). */
export interface EndpointDisabledNotice {
  endpointId: string;
  siteId: string;
  url: string;
  reason: string;
  at: number;
}

const epoch = (value: number | null): number | null => (value == null ? null : Number(value));

export function toEndpoint(row: EndpointRow, now: number): WebhookEndpoint {
  const until = epoch(row.previous_secret_until);
  return {
    id: row.id,
    siteId: row.site_id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as EventType[],
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    failingSince: epoch(row.failing_since),
    throttledUntil: epoch(row.throttled_until) !== null && Number(row.throttled_until) > now ? Number(row.throttled_until) : null,
    previousSecretExpiresAt: until !== null && until > now && row.previous_secret_sealed ? until : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** An attempt as both the merchant endpoints' deliveries and the bootstrap endpoint's outbox record it. */
export type AttemptFields = Omit<DeliveryAttemptRow, 'id' | 'delivery_id'>;

export const toAttempt = (row: AttemptFields): DeliveryAttempt => ({
  attempt: row.attempt,
  startedAt: Number(row.started_at),
  durationMs: row.duration_ms,
  statusCode: row.status_code,
  responseExcerpt: row.response_excerpt,
  error: row.error,
});

export function toDelivery(row: DeliveryRow, attempts: readonly DeliveryAttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.message_id,
    endpointId: row.endpoint_id,
    siteId: row.site_id,
    eventType: eventTypeOf(row.path),
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: epoch(row.next_attempt_at),
    createdAt: Number(row.created_at),
    deliveredAt: epoch(row.delivered_at),
    lastError: row.last_error,
    attempts: attempts.filter((a) => a.delivery_id === row.id).map(toAttempt),
  };
}

/** An opaque position in a list ordered by (created_at, id). */
export const cursorOf = (row: { created_at: number; id: string }): string => Buffer.from(`${Number(row.created_at)}:${row.id}`, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): { createdAt: number; id: string } | null {
  const match = /^([0-9]{1,15}):([A-Za-z0-9_-]{1,64})$/u.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || cursorOf({ created_at: Number(match[1]), id: match[2]! }) !== cursor) return null;
  return { createdAt: Number(match[1]), id: match[2]! };
}
