/** Merchants and their 3DS enrollment requests (migration 0005). Rows in, rows out; `db` may be a transaction. */
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { MerchantTable, ThreeDsRequestTable } from './risk-tables.ts';

export type MerchantRow = Selectable<MerchantTable>;
export type ThreeDsRequestRow = Selectable<ThreeDsRequestTable>;

export async function insertMerchant(db: Db, row: MerchantRow): Promise<void> {
  await db.insertInto('merchants').values(row).execute();
}

export async function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The owner's merchant of this name (`nameKey`, merchant-rules.ts merchantNameKey), if it has one. */
export async function findMerchantByName(db: Db, ownerSiteId: string, nameKey: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('owner_site_id', '=', ownerSiteId).where('name_key', '=', nameKey).executeTakeFirst();
}

export async function insertThreeDsRequest(db: Db, row: ThreeDsRequestRow): Promise<void> {
  await db.insertInto('three_ds_requests').values(row).execute();
}

export async function findThreeDsRequest(db: Db, merchantSiteId: string, id: string): Promise<ThreeDsRequestRow | undefined> {
  return db.selectFrom('three_ds_requests').selectAll().where('id', '=', id).where('merchant_site_id', '=', merchantSiteId).executeTakeFirst();
}

export async function threeDsRequestsOf(db: Db, merchantSiteId: string): Promise<ThreeDsRequestRow[]> {
  return db.selectFrom('three_ds_requests').selectAll().where('merchant_site_id', '=', merchantSiteId).orderBy('created_at').orderBy('id').execute();
}

export async function dueThreeDsRequests(db: Db, now: number, limit: number): Promise<ThreeDsRequestRow[]> {
  return db
    .selectFrom('three_ds_requests')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

export async function nextThreeDsDue(db: Db): Promise<number | null> {
  const row = await db.selectFrom('three_ds_requests').select((eb) => eb.fn.min('due_at').as('due')).where('status', '=', 'PENDING').executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}

/** The claim: completes a request only while it is still PENDING, so no two instances complete it twice. */
export async function completeThreeDsRequest(db: Db, id: string, status: string, reason: string | null, now: number): Promise<boolean> {
  const result = await db
    .updateTable('three_ds_requests')
    .set({ status, reason, completed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
