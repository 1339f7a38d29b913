/**
 * Kysely queries for merchant webhook endpoints (migration 0010, docs/merchant-webhooks.md#endpoints): a site's own
 * rows, staff listings across sites, and the health columns the dispatcher writes. Every site query names the
 * site, so another site's endpoint id is simply not found. Rows in, rows out; `db` may be a transaction.
 */
import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Db } from '../db/database.ts';
import type { EndpointRow, WebhookEndpointTable } from './endpoint-tables.ts';

export type { EndpointRow } from './endpoint-tables.ts';

export async function insertEndpoint(db: Db, row: Insertable<WebhookEndpointTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

/** One endpoint of `siteId` (null: of any site, for staff and the dispatcher). */
export async function findEndpoint(db: Db, id: string, siteId: string | null): Promise<EndpointRow | undefined> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id);
  if (siteId !== null) query = query.where('site_id', '=', siteId);
  return query.executeTakeFirst();
}

/** A site's endpoints, or every site's (staff), oldest first after the (created_at, id) position `after`. */
export async function listEndpoints(db: Db, filter: { siteId?: string; after?: { createdAt: number; id: string }; limit: number }): Promise<EndpointRow[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll();
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  const after = filter.after;
  if (after) query = query.where((w) => w.or([w('created_at', '>', after.createdAt), w.and([w('created_at', '=', after.createdAt), w('id', '>', after.id)])]));
  return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(filter.limit).execute();
}

export async function countEndpoints(db: Db, siteId?: string): Promise<number> {
  let query = db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n'));
  if (siteId !== undefined) query = query.where('site_id', '=', siteId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The endpoints of `siteId` a new notification goes to: all of them, enabled or not (a disabled one keeps its messages). */
export async function endpointsOfSite(db: Db, siteId: string): Promise<Array<Pick<EndpointRow, 'id' | 'event_types'>>> {
  return db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('site_id', '=', siteId).execute();
}

/** The endpoints the dispatcher may send to now: enabled and not throttled. */
export async function sendableEndpoints(db: Db, now: number): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('enabled', '=', 1)
    .where((w) => w.or([w('throttled_until', 'is', null), w('throttled_until', '<=', now)]))
    .orderBy('id')
    .execute();
}

/** The earliest throttle that runs out after `now`, so the dispatcher wakes for it. */
export async function nextThrottleEnd(db: Db, now: number): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.min('throttled_until').as('at'))
    .where('enabled', '=', 1)
    .where('throttled_until', '>', now)
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

/** Changes the endpoint of `siteId` (null: of any site); false when there is none. */
export async function updateEndpoint(db: Db, id: string, siteId: string | null, set: Updateable<WebhookEndpointTable>): Promise<boolean> {
  let query = db.updateTable('webhook_endpoints').set(set).where('id', '=', id);
  if (siteId !== null) query = query.where('site_id', '=', siteId);
  return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
}

/**
 * Disables an endpoint that is still enabled (a conditional update: of two instances seeing failures at once, one
 * disables it and gives the notice); true when this call did.
 */
export async function disableEndpoint(db: Db, id: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason.slice(0, 500), updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Endpoints disabled now, and changed at or after `since`, for another reason than the `siteReasons`, oldest first. */
export async function endpointsDisabledSince(db: Db, since: number, siteReasons: readonly string[], limit: number): Promise<EndpointRow[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('enabled', '=', 0)
    .where('disabled_reason', 'not in', siteReasons)
    .where('updated_at', '>=', since)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/**
 * What a batch of attempts at one endpoint, in order, did to its health: a success clears the run of failures, a
 * failure starts one if none runs. `failing`: the run the batch ends in (null: it ends in a success), from its first
 * failure (`since`), which continues the run stored unless a success of the batch came before it.
 */
export interface HealthOutcome {
  failing: { since: number; afterSuccess: boolean } | null;
  throttledUntil: number | null;
}

/** A batch that ended in a success, unthrottled (nearly every batch): compiled once (db/compiled-once.ts). */
const answeredQuery = compiledOnce((db: Db, v: { id: string; url: string }) =>
  db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', v.id).where('url', '=', v.url).returningAll(),
);

/** Writes a batch's health outcome (once per endpoint per batch, not per attempt); the row as it is now. */
export async function recordHealth(db: Db, id: string, url: string, outcome: HealthOutcome): Promise<EndpointRow | undefined> {
  const { failing, throttledUntil } = outcome;
  if (failing === null && throttledUntil === null) return (await answeredQuery(db, { id, url })).rows[0];
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      failing_since: failing === null ? null : failing.afterSuccess ? failing.since : eb.fn.coalesce('failing_since', eb.val(failing.since)),
      ...(throttledUntil !== null ? { throttled_until: throttledUntil } : {}),
    }))
    .where('id', '=', id)
    .where('url', '=', url)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes an endpoint with its deliveries and their attempts; false when the site has no such endpoint. */
export async function deleteEndpoint(db: Db, id: string, siteId: string): Promise<boolean> {
  const found = await findEndpoint(db, id, siteId);
  if (!found) return false;
  await db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id)).execute();
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).where('site_id', '=', siteId).execute();
  return true;
}

/** A secret rotation, only while `secretSealed` is still the current secret: of two at once, one wins. */
export async function rotateEndpointSecret(db: Db, id: string, secretSealed: string, set: Updateable<WebhookEndpointTable>): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set(set).where('id', '=', id).where('secret_sealed', '=', secretSealed).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The sealed columns a VAULT_KEY rotation rewrites (scripts/vault-rotate.ts). */
export type SealedSecrets = Pick<EndpointRow, 'secret_sealed' | 'previous_secret_sealed' | 'older_secret_sealed'>;

const notUnder = (currentPrefix: string) => (w: ExpressionBuilder<{ webhook_endpoints: WebhookEndpointTable }, 'webhook_endpoints'>) =>
  w.or([
    w('secret_sealed', 'not like', `${currentPrefix}%`),
    w.and([w('previous_secret_sealed', 'is not', null), w('previous_secret_sealed', 'not like', `${currentPrefix}%`)]),
    w.and([w('older_secret_sealed', 'is not', null), w('older_secret_sealed', 'not like', `${currentPrefix}%`)]),
  ]);

/** Endpoints holding a secret not sealed under the current key (`currentPrefix`), in id order after `after`: one batch of a rotation pass. */
export async function endpointsToReseal(db: Db, currentPrefix: string, after: string, limit: number): Promise<Array<SealedSecrets & { id: string }>> {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret_sealed', 'previous_secret_sealed', 'older_secret_sealed'])
    .where('id', '>', after)
    .where(notUnder(currentPrefix))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function countEndpointsToReseal(db: Db, currentPrefix: string): Promise<number> {
  const row = await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).where(notUnder(currentPrefix)).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Writes an endpoint's re-sealed secrets only while all are still exactly what the rotation read: one whose secret
 * was rotated meanwhile (rotate-secret) is left alone and found again by the next pass.
 */
export async function resealEndpointSecrets(db: Db, id: string, from: SealedSecrets, to: SealedSecrets): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set(to)
    .where('id', '=', id)
    .where('secret_sealed', '=', from.secret_sealed)
    .where('previous_secret_sealed', from.previous_secret_sealed === null ? 'is' : '=', from.previous_secret_sealed)
    .where('older_secret_sealed', from.older_secret_sealed === null ? 'is' : '=', from.older_secret_sealed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One endpoint's sealed secret, any (the start's key check), or null when no endpoint is stored. */
export async function anySealedSecret(db: Db): Promise<string | null> {
  const row = await db.selectFrom('webhook_endpoints').select('secret_sealed').limit(1).executeTakeFirst();
  return row?.secret_sealed ?? null;
}
