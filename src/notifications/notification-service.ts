/**
 * Notifications for staff (docs/notifications.md#staff-view-and-redelivery): the deliveries with every attempt, redelivery, and the live stream
 * of attempts.
 */
import { createReadRecovery } from '../events/read-recovery.ts';
import { REPLAY_MAX, streamOf, viewsOf } from './stream-service.ts';
import { DomainError } from '../kernel/errors.ts';
import { readTogether, transaction } from '../db/transaction.ts';
import {
  attemptsOf,
  countNotifications,
  findNotification,
  listNotifications,
  markForRedelivery,
  notificationsChangedSince,
  type AttemptRow,
  type OutboxRow,
} from './outbox-repository.ts';
import type { OutboxStatus } from './outbox-tables.ts';
import { announceQueued } from './outbox-service.ts';
import type { NotificationPath } from './notification-paths.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { loadVaultKey } from '../kernel/vault-key.ts';
import { bodyForStaff, subjectAtRest, useVaultKey } from './sealed-body.ts';
import { toAttempt, type DeliveryAttempt } from './endpoint-view.ts';
import { isBootstrapSite } from './bootstrap-site.ts';
import { activeTraceParent } from '../operations/tracing.ts';

export const NOTIFICATIONS_PAGE_DEFAULT = 50;
export const NOTIFICATIONS_PAGE_MAX = 200;

/** One POST to MERCHANT_ENDPOINT, recorded as an attempt to a merchant's own endpoint is. */
export type NotificationAttempt = DeliveryAttempt;

export interface Notification {
  /** Also the `webhook-id` (and `uniqueMessageId` of evidence requests). */
  id: string;
  path: NotificationPath;
  /** The body as queued, vault tokens masked (fields computed at send time are not in it). */
  body: string;
  status: OutboxStatus;
  subject: string | null;
  attemptCount: number;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
  lastError: string | null;
  attempts: NotificationAttempt[];
}

export interface NotificationPage {
  edges: Array<{ cursor: string; node: Notification }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

export interface NotificationQuery {
  first?: number | null;
  after?: string | null;
  statuses?: readonly OutboxStatus[] | null;
  paths?: readonly NotificationPath[] | null;
}

export interface NotificationService {
  list(query: NotificationQuery): Promise<NotificationPage>;
  /** One notification by its own id (msg_…), with every attempt; null when unknown. */
  find(id: string): Promise<Notification | null>;
  /**
   * Due now with its id and body; earlier attempts are kept and new ones append. Asked for while an attempt is in
   * flight, it still happens after that attempt (docs/notifications.md#redelivery-during-an-attempt).
   */
  redeliver(id: string): Promise<Notification>;
  /** One event per recorded attempt, on any instance, as it happens. */
  events(): Promise<AsyncIterable<Notification>>;
}

function toNotification(row: OutboxRow, attempts: AttemptRow[]): Notification {
  return {
    id: row.id,
    path: row.path as NotificationPath,
    // Staff never see a token: sealed bodies show their masked copy (docs/notifications.md#secrets-in-the-outbox).
    body: bodyForStaff(row.path, row.body),
    status: row.status,
    subject: subjectAtRest(row.path, row.subject),
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at == null ? null : Number(row.next_attempt_at),
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at == null ? null : Number(row.delivered_at),
    lastError: row.last_error,
    attempts: attempts.filter((a) => a.notification_id === row.id).map(toAttempt),
  };
}

const cursorOf = (row: { created_at: number; id: string }) => Buffer.from(`${Number(row.created_at)}:${row.id}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const match = /^([0-9]{1,15}):(.{1,64})$/u.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || cursorOf({ created_at: Number(match[1]), id: match[2]! }) !== cursor) {
    throw new DomainError('validation_failed', 'The cursor is not one this list gave out.', { field: 'after' });
  }
  return { createdAt: Number(match[1]), id: match[2]! };
}

export function createNotificationService(deps: ServiceDeps): NotificationService {
  const { database, clock, bus, logger } = deps;
  // One per service: the staff streams' failed reads wait for the database together (src/events/read-recovery.ts).
  const recovery = createReadRecovery({ onBusResume: (handler) => bus.onResume(handler), probe: database.check, clock, logger });
  // The key that seals outbox bodies with secrets, for queueNotification and the dispatcher (sealed-body.ts).
  useVaultKey(loadVaultKey(deps.config));

  /** With its attempts, from one snapshot (readTogether): it lists as many attempts as it counts. */
  async function get(id: string): Promise<Notification | null> {
    return readTogether(database.db, async (trx) => {
      const row = await findNotification(trx, id);
      return row ? toNotification(row, await attemptsOf(trx, [id])) : null;
    });
  }

  return {
    async list({ first, after, statuses, paths }) {
      const limit = Math.min(Math.max(first ?? NOTIFICATIONS_PAGE_DEFAULT, 1), NOTIFICATIONS_PAGE_MAX);
      const filter = { statuses: statuses ?? undefined, paths: paths ?? undefined };
      const position = after ? decodeCursor(after) : undefined;
      return readTogether(database.db, async (trx) => {
        const [rows, totalCount] = await Promise.all([listNotifications(trx, { ...filter, after: position, limit: limit + 1 }), countNotifications(trx, filter)]);
        const page = rows.slice(0, limit);
        const attempts = await attemptsOf(trx, page.map((r) => r.id));
        const edges = page.map((row) => ({ cursor: cursorOf(row), node: toNotification(row, attempts) }));
        return { edges, pageInfo: { hasNextPage: rows.length > limit, endCursor: edges.at(-1)?.cursor ?? null }, totalCount };
      });
    },

    find: get,

    async redeliver(id) {
      // Another site's message never goes to MERCHANT_ENDPOINT: it is redelivered per endpoint (docs/merchant-webhooks.md).
      const found = await findNotification(database.db, id);
      if (found?.site_id && !isBootstrapSite(found.site_id)) {
        throw new DomainError('validation_failed', `This notification belongs to site ${found.site_id}: redeliver it at that site's own endpoints.`, { field: 'id' });
      }
      // The notification as the redelivery left it (the row it wrote), before a dispatcher hears of it: read after,
      // it was at times already leased again or delivered by whichever dispatcher was quicker than the read. Its
      // attempts in the same transaction: a dispatcher records one only with the row, which this update has locked.
      const answer = await transaction(database.db, async (trx) => {
        const row = await markForRedelivery(trx, id, { now: clock.now(), traceParent: activeTraceParent() });
        return row ? toNotification(row, await attemptsOf(trx, [id])) : null;
      });
      if (!answer) throw new DomainError('not_found', 'No notification has that id.');
      announceQueued(bus, [{ id, outbox: true, endpoints: [] }]);
      return answer;
    },

    events() {
      return streamOf(bus, 'notificationAttempted', {
        load: (event) => get(event.id),
        replay: async (since) => viewsOf(await notificationsChangedSince(database.db, since, REPLAY_MAX), get),
        clock,
        recovery,
      });
    },

  };
}
