/**
 * The reads of merchants' endpoints and deliveries that answer with a page or a delivery with its attempts. Each is
 * one snapshot of the database (readTogether, src/db/transaction.ts): a page agrees with its `totalCount`, and a
 * delivery lists as many attempts as it counts, though another instance writes meanwhile
 * (test/scale/read-consistency.test.ts).
 */
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/tables.ts';
import { readTogether } from '../db/transaction.ts';
import { DomainError } from '../kernel/errors.ts';
import { attemptsOfDeliveries, countDeliveries, findDelivery, listDeliveries } from './delivery-repository.ts';
import { PAGE_DEFAULT, PAGE_MAX, type DeliveryQuery } from './endpoint-contract.ts';
import { countEndpoints, listEndpoints } from './endpoint-repository.ts';
import { cursorOf, decodeCursor, toDelivery, toEndpoint, type Page, type WebhookDelivery, type WebhookEndpoint } from './endpoint-view.ts';

const pageSize = (first: number | null | undefined) => Math.min(Math.max(first ?? PAGE_DEFAULT, 1), PAGE_MAX);

/** Where a page starts: after the (created_at, id) its cursor names; a cursor this list never gave out is a 400. */
function position(after: string | null | undefined) {
  if (!after) return undefined;
  const at = decodeCursor(after);
  if (!at) throw new DomainError('bad_request', 'The cursor is not one this list gave out.', { field: 'after', errors: [{ field: 'after', message: 'is not a cursor this list gave out.' }] });
  return at;
}

/** One endpoint's deliveries, newest first, each with its attempts, and how many the filter matches. */
export function deliveryPage(db: Kysely<Database>, endpointId: string, query: DeliveryQuery = {}): Promise<Page<WebhookDelivery>> {
  const limit = pageSize(query.first);
  const statuses = query.statuses ?? undefined;
  const before = position(query.after);
  return readTogether(db, async (trx) => {
    const [rows, totalCount] = await Promise.all([listDeliveries(trx, { endpointId, statuses, before, limit: limit + 1 }), countDeliveries(trx, endpointId, statuses)]);
    const page = rows.slice(0, limit);
    const attempts = await attemptsOfDeliveries(trx, page.map((r) => r.id));
    return { items: page.map((row) => toDelivery(row, attempts)), endCursor: page.length ? cursorOf(page.at(-1)!) : null, hasNextPage: rows.length > limit, totalCount };
  });
}

/** One delivery with its attempts; `from` a transaction, to read what it has just written (in its snapshot). */
export function oneDelivery(db: Kysely<Database>, id: string, from?: Db): Promise<WebhookDelivery | null> {
  const read = async (trx: Db) => {
    const row = await findDelivery(trx, id);
    return row ? toDelivery(row, await attemptsOfDeliveries(trx, [id])) : null;
  };
  return from ? read(from) : readTogether(db, read);
}

/** Every site's endpoints (or one site's), for staff, and how many there are. */
export function endpointPage(db: Kysely<Database>, query: { siteId?: string | null; first?: number | null; after?: string | null }, now: number): Promise<Page<WebhookEndpoint>> {
  const limit = pageSize(query.first);
  const siteId = query.siteId ?? undefined;
  const after = position(query.after);
  return readTogether(db, async (trx) => {
    const [rows, totalCount] = await Promise.all([listEndpoints(trx, { siteId, after, limit: limit + 1 }), countEndpoints(trx, siteId)]);
    const page = rows.slice(0, limit);
    return { items: page.map((row) => toEndpoint(row, now)), endCursor: page.length ? cursorOf(page.at(-1)!) : null, hasNextPage: rows.length > limit, totalCount };
  });
}
