/**
 * Writing to the outbox (docs/notifications.md): a notification is a row inserted in the same transaction as the
 * change that causes it, so a crash can never keep one without the other. The dispatcher (dispatcher-job.ts)
 * delivers it later. After the transaction commits, call `announceQueued` so the local and other instances'
 * dispatchers wake at once. A body that holds a vault token is sealed here, before it is written, and its subject
 * masked (docs/notifications.md#secrets-in-the-outbox).
 */
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { timeOrderedId } from '../kernel/tokens.ts';
import { activeTraceParent } from '../operations/tracing.ts';
import type { NotificationBodies, NotificationPath } from './notification-paths.ts';
import { insertNotification, replaceBody, unsealedBodies } from './outbox-repository.ts';
import { bodyAtRest, SEALED_PREFIX, SECRET_PATHS, subjectAtRest } from './sealed-body.ts';
import { isBootstrapSite } from './bootstrap-site.ts';
import { queueDeliveries } from './fanout-service.ts';

export interface QueueOptions {
  now: number;
  /**
   * The site the notification belongs to (docs/merchant-webhooks.md#ownership): a token's, an account's, a claim's,
   * a decided order's or listing's; the bootstrap site for sleeve orders. Every trigger names it; without one (rows
   * queued by hand, as some tests do) the row is the bootstrap endpoint's, as before issue 19.
   */
  site?: string;
  /** What it is about (token, account id, order id, claim id), for staff filters. */
  subject?: string;
  /** Deliver no earlier than this (epoch ms); defaults to now. */
  dueAt?: number;
}

/** A notification queued, and who has work for it: what `announceQueued` tells the dispatchers after the commit. */
export interface Queued {
  /** Its id, which is also its `webhook-id`. */
  id: string;
  /** Whether it waits for MERCHANT_ENDPOINT (the bootstrap site's; dispatcher-job.ts). */
  outbox: boolean;
  /** The merchant endpoints that got a delivery of it (delivery-job.ts). */
  endpoints: string[];
}

/**
 * Inserts one notification inside `trx`, with a delivery to each endpoint of its site that takes it. The body is
 * document 2's body for `path` (fields computed at send time are filled in by the dispatcher).
 */
export async function queueNotification<P extends NotificationPath>(trx: Db, path: P, body: NotificationBodies[P], options: QueueOptions): Promise<Queued> {
  const id = timeOrderedId('msg_');
  const { now, site } = options;
  // Only the bootstrap site's go to MERCHANT_ENDPOINT; another site's row is never sent there, and says so.
  const bootstrap = site === undefined || isBootstrapSite(site);
  await insertNotification(trx, {
    id,
    site_id: site ?? null,
    path,
    body: bodyAtRest(path, JSON.stringify(body)),
    status: bootstrap ? 'PENDING' : 'DROPPED',
    subject: subjectAtRest(path, options.subject ?? null),
    attempt_count: 0,
    next_attempt_at: bootstrap ? (options.dueAt ?? now) : null,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
    delivered_at: null,
    last_error: bootstrap ? null : `Belongs to site ${site}: sent to that site's own endpoints, not MERCHANT_ENDPOINT.`,
    trace_parent: activeTraceParent(),
  });
  const endpoints = site === undefined ? [] : await queueDeliveries(trx, { id, site, path, now, dueAt: options.dueAt ?? now });
  return { id, outbox: bootstrap, endpoints };
}

/**
 * After commit: tells the dispatchers that have work in these that it is due (a hint; they also poll). Only those
 * wake: a sweep of every merchant endpoint for each new message cost a claim per endpoint, whoever it was for.
 */
export function announceQueued(bus: EventBus, queued: Queued[]): void {
  if (queued.length === 0) return;
  bus.publish('notificationQueued', {
    ids: queued.map((q) => q.id),
    outbox: queued.some((q) => q.outbox),
    endpoints: [...new Set(queued.flatMap((q) => q.endpoints))],
  });
}

/**
 * Seals the bodies with secrets that were queued in the clear before issue 14, so an upgraded database keeps no
 * token either (docs/notifications.md#secrets-in-the-outbox). Run at start; each row is replaced only if it is still
 * the plaintext read, so instances starting together seal it once.
 */
export async function sealPlaintextBodies(db: Db): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await unsealedBodies(db, SECRET_PATHS, SEALED_PREFIX, 100);
    for (const row of rows) await replaceBody(db, row.id, row.body, { body: bodyAtRest(row.path, row.body), subject: subjectAtRest(row.path, row.subject) });
    sealed += rows.length;
    if (rows.length < 100) return sealed;
  }
}
