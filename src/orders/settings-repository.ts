/** Sleeve option sets (versioned, append-only) and simple settings such as the event information text. */
import type { Db } from '../db/database.ts';

export async function latestOptionSet(db: Db): Promise<{ version: number; body: string } | undefined> {
  return db
    .selectFrom('sleeve_option_sets')
    .select(['version', 'body'])
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertOptionSet(db: Db, version: number, body: string, now: number): Promise<void> {
  await db.insertInto('sleeve_option_sets').values({ version, body, created_at: now }).execute();
}

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, key: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}
