/**
 * Migration 0007 (docs/platform.md#accounts-per-site): accounts stored before it had no site. Each goes to every
 * site that sent requests for it, keeping the status last announced; one no request names goes to the bootstrap
 * site. Runs on the backend of this run (SQLite, or PostgreSQL in the postgres project).
 */
import { Migrator, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createDatabase, type AppDatabase } from '../../src/db/database.ts';
import { migrationProvider } from '../../src/db/migrations/index.ts';
import { backendEnv } from '../support/databases.ts';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function databaseAt(migration: string): Promise<{ database: AppDatabase; db: Kysely<any> }> {
  const backend = backendEnv();
  cleanup.push(backend.cleanup);
  const url = backend.env.DATABASE_URL;
  const database = await createDatabase(url ? { kind: 'postgres', url } : { kind: 'sqlite', path: ':memory:' });
  cleanup.push(() => database.destroy());
  const schema = url ? new URL(url).searchParams.get('schema')! : undefined;
  const migrator = new Migrator({ db: database.db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error;
  return { database, db: database.db as Kysely<any> };
}

const request = (id: string, siteId: string, accountId: string) => ({
  id,
  site_id: siteId,
  kind: 'profile-access',
  event_id: id,
  account_id: accountId,
  event_time: 1_795_359_600_000,
  customer_ip: null,
  request: '{}',
  vendor_decision: 'APPROVE',
  reason_codes: '[]',
  recommendations: '[]',
  fired_rules: '[]',
  correlation_id: `corr_${id}`,
  review_status: null,
  reviewed_by: null,
  review_comments: null,
  reviewed_at: null,
  created_at: 1,
});

const account = (accountId: string, status: string) => ({ account_id: accountId, status, reasons: '["r"]', recommendations: '[]', updated_at: 7 });

it('gives every existing account to each site that sent requests for it, and an account without requests to the bootstrap site', async () => {
  const { database, db } = await databaseAt('0006-claims');
  await db.insertInto('sites').values([
    { site_id: 'site_boot', api_key_hash: 'h', kind: 'bootstrap', parent_site_id: null, created_at: 1 },
    { site_id: 'site_m', api_key_hash: 'h', kind: 'merchant', parent_site_id: 'site_boot', created_at: 1 },
  ]).execute();
  await db.insertInto('platform_accounts').values([account('shared', 'DEACTIVATE'), account('only-m', 'ACTIVATE'), account('orphan', 'RESTRICT_POLICY')]).execute();
  await db.insertInto('account_requests').values([
    request('r1', 'site_boot', 'shared'),
    request('r2', 'site_m', 'shared'),
    request('r3', 'site_m', 'shared'),
    request('r4', 'site_m', 'only-m'),
  ]).execute();

  await database.migrate();

  const rows = await db.selectFrom('platform_accounts').selectAll().orderBy('account_id').orderBy('site_id').execute();
  expect(rows.map((r) => ({ ...r, updated_at: Number(r.updated_at) }))).toEqual([
    { site_id: 'site_m', ...account('only-m', 'ACTIVATE') },
    { site_id: 'site_boot', ...account('orphan', 'RESTRICT_POLICY') },
    { site_id: 'site_boot', ...account('shared', 'DEACTIVATE') },
    { site_id: 'site_m', ...account('shared', 'DEACTIVATE') },
  ]);
  // (site, account id) is the key now: another site may hold the same id, one site may not hold it twice.
  await db.insertInto('platform_accounts').values({ site_id: 'site_other', ...account('shared', 'ACTIVATE') }).execute();
  await expect(db.insertInto('platform_accounts').values({ site_id: 'site_m', ...account('shared', 'ACTIVATE') }).execute()).rejects.toThrow();
});
