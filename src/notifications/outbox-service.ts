/**
 * Writing to the outbox (docs/notifications.md): a notification is a row inserted in the same transaction as the
 * change that causes it, so a crash can never keep one without the other. The dispatcher (dispatcher-job.ts)
 * delivers it later. After the transaction commits, call `announceQueued` so the local and other instances'
 * dispatchers wake at once.
 */
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { randomId } from '../kernel/tokens.ts';
import type { NotificationBodies, NotificationPath } from './notification-paths.ts';
import { insertNotification } from './outbox-repository.ts';

export interface QueueOptions {
  now: number;
  /** What it is about (token, account id, order id, claim id), for staff filters. */
  subject?: string;
  /** Deliver no earlier than this (epoch ms); defaults to now. */
  dueAt?: number;
}

/**
 * Inserts one notification inside `trx` and returns its id, which is also its `webhook-id`. The body is document 2's
 * body for `path` (fields computed at send time are filled in by the dispatcher).
 */
export async function queueNotification<P extends NotificationPath>(trx: Db, path: P, body: NotificationBodies[P], options: QueueOptions): Promise<string> {
  const id = randomId('msg_');
  const { now } = options;
  await insertNotification(trx, {
    id,
    path,
    body: JSON.stringify(body),
    status: 'PENDING',
    subject: options.subject ?? null,
    attempt_count: 0,
    next_attempt_at: options.dueAt ?? now,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
    delivered_at: null,
    last_error: null,
  });
  return id;
}

/** After commit: tells every dispatcher that work is due (a hint; the dispatcher also polls). */
export function announceQueued(bus: EventBus, ids: string[]): void {
  if (ids.length > 0) bus.publish('notificationQueued', { ids });
}
