/**
 * Writing to the outbox (CONTRACT §4): a notification is a row inserted in the same transaction as the change that
 * causes it, so a crash can never keep one without the other. The dispatcher (dispatcher.ts) delivers it later.
 * After the transaction commits, call `announceQueued` so the local and other instances' dispatchers wake at once.
 */
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { randomId } from '../kernel/tokens.ts';

/** Document 2 §4: the five paths at MERCHANT_ENDPOINT. */
export const NOTIFICATION_PATHS = [
  '/token-updated',
  '/requestforevidencenotification',
  '/accountupdatenotification',
  '/orderstatusupdatenotification',
  '/itemlistingrequestupdatenotification',
] as const;

export type NotificationPath = (typeof NOTIFICATION_PATHS)[number];

export interface QueuedNotification {
  path: NotificationPath;
  /** The body of document 2 for this path (fields computed at send time are filled in by the dispatcher). */
  body: Record<string, unknown>;
  /** What it is about (token, account id, order id, claim id), for staff filters. */
  subject?: string;
  /** Deliver no earlier than this (epoch ms); defaults to now. */
  dueAt?: number;
}

/** Inserts one notification inside `trx`; returns its id, which is also its `webhook-id`. */
export async function queueNotification(trx: Db, notification: QueuedNotification, now: number): Promise<string> {
  const id = randomId('msg_');
  await trx
    .insertInto('outbox_notifications')
    .values({
      id,
      path: notification.path,
      body: JSON.stringify(notification.body),
      status: 'PENDING',
      subject: notification.subject ?? null,
      attempt_count: 0,
      next_attempt_at: notification.dueAt ?? now,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
      last_error: null,
    })
    .execute();
  return id;
}

/** After commit: tells every dispatcher that work is due (a hint; the dispatcher also polls). */
export function announceQueued(bus: EventBus, ids: string[]): void {
  if (ids.length > 0) bus.publish('notificationQueued', { ids });
}
