/**
 * Accounts per site (issue 14; docs/platform.md#accounts-per-site): platform accounts are keyed by (site, account
 * id), and the velocity indexes of account_requests lead with the site, so one site's history never counts for
 * another's. Existing accounts had no site: each goes to every site that sent requests for it, keeping the status
 * last announced; one with no request at all goes to the bootstrap site. Never edit once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_accounts_by_site')
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('recommendations', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_accounts_site_account', ['site_id', 'account_id'])
    .execute();

  await sql`
    insert into platform_accounts_by_site (site_id, account_id, status, reasons, recommendations, updated_at)
    select distinct r.site_id, a.account_id, a.status, a.reasons, a.recommendations, a.updated_at
    from platform_accounts a join account_requests r on r.account_id = a.account_id`.execute(db);
  await sql`
    insert into platform_accounts_by_site (site_id, account_id, status, reasons, recommendations, updated_at)
    select s.site_id, a.account_id, a.status, a.reasons, a.recommendations, a.updated_at
    from platform_accounts a cross join sites s
    where s.kind = 'bootstrap' and not exists (select 1 from account_requests r where r.account_id = a.account_id)`.execute(db);

  await db.schema.dropTable('platform_accounts').execute();
  await db.schema.alterTable('platform_accounts_by_site').renameTo('platform_accounts').execute();

  // Velocity and history read (site, account) and (site, IP) up to an eventTime.
  await db.schema.dropIndex('account_requests_account').execute();
  await db.schema.dropIndex('account_requests_ip').execute();
  await db.schema.createIndex('account_requests_site_account').on('account_requests').columns(['site_id', 'account_id', 'event_time']).execute();
  await db.schema.createIndex('account_requests_site_ip').on('account_requests').columns(['site_id', 'customer_ip', 'event_time']).execute();
}
