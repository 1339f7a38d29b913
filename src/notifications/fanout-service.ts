/**
 * Fan-out (docs/merchant-webhooks.md#ownership): in the transaction of the change, one delivery of a new message to
 * each endpoint of its site whose event types take it, so a change is never kept without them. Disabled endpoints
 * get theirs too and keep them until enabled (docs/merchant-webhooks.md#disabling-and-recovery).
 */
import type { Db } from '../db/database.ts';
import { timeOrderedId } from '../kernel/tokens.ts';
import { insertDeliveries } from './delivery-repository.ts';
import { endpointsOfSite } from './endpoint-repository.ts';
import { takes } from './endpoint-rules.ts';
import type { NotificationPath } from './notification-paths.ts';

/** Returns the endpoints that got a delivery, whose dispatcher is woken for them after the commit. */
export async function queueDeliveries(trx: Db, message: { id: string; site: string; path: NotificationPath; now: number; dueAt: number }): Promise<string[]> {
  const endpoints = await endpointsOfSite(trx, message.site);
  const rows = endpoints
    .filter((endpoint) => takes(JSON.parse(endpoint.event_types) as string[], message.path))
    .map((endpoint) => ({
      id: timeOrderedId('dlv_'),
      message_id: message.id,
      endpoint_id: endpoint.id,
      site_id: message.site,
      path: message.path,
      body: null,
      status: 'PENDING' as const,
      attempt_count: 0,
      next_attempt_at: message.dueAt,
      lease_owner: null,
      lease_until: null,
      created_at: message.now,
      updated_at: message.now,
      delivered_at: null,
      last_error: null,
    }));
  await insertDeliveries(trx, rows);
  return rows.map((row) => row.endpoint_id);
}
