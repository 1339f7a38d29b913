/** Platform sites: site ids and the hashes of their API keys. Rows in, rows out; `db` may be a transaction. */
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { SiteTable } from './site-tables.ts';

export type SiteRow = Selectable<SiteTable>;

export async function findSite(db: Db, siteId: string): Promise<SiteRow | undefined> {
  return (await findSiteQuery(db, { siteId })).rows[0];
}

/** Read on every authenticated request: compiled once (src/db/compiled-once.ts). */
const findSiteQuery = compiledOnce((db: Db, v: { siteId: string }) => db.selectFrom('sites').selectAll().where('site_id', '=', v.siteId));

export async function insertSite(db: Db, row: SiteRow): Promise<void> {
  await db.insertInto('sites').values(row).execute();
}

/** A merchant site's new key: its hash replaces the old one at once (true when the site is a merchant's). */
export async function replaceMerchantKeyHash(db: Db, siteId: string, apiKeyHash: string): Promise<boolean> {
  const result = await db.updateTable('sites').set({ api_key_hash: apiKeyHash }).where('site_id', '=', siteId).where('kind', '=', 'merchant').executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The bootstrap site follows VENDOR_SITE_ID/VENDOR_API_KEY: a new key in the environment replaces the old hash. */
export async function upsertBootstrapSite(db: Db, siteId: string, apiKeyHash: string, now: number): Promise<void> {
  await db
    .insertInto('sites')
    .values({ site_id: siteId, api_key_hash: apiKeyHash, kind: 'bootstrap', parent_site_id: null, created_at: now })
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ api_key_hash: apiKeyHash }))
    .execute();
}
