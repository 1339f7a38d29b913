/** Platform sites (docs/platform.md#credentials): the bootstrap site from the environment, keys kept only as hashes, merchant sites. */
import type { AccountUpdateBody } from '../../src/notifications/bodies.ts';
import { describe, expect, it } from 'vitest';
import { queueNotification } from '../../src/notifications/outbox-service.ts';
import { TEST_API_KEY, TEST_SITE_ID, testGateway } from '../support/gateway.ts';

describe('sites', () => {
  it('authenticates the bootstrap site with its key and refuses a wrong key or an unknown site alike', async () => {
    const { gateway } = await testGateway();
    const sites = gateway.services.sites;
    expect(await sites.authenticate(TEST_SITE_ID, TEST_API_KEY)).toMatchObject({ siteId: TEST_SITE_ID, kind: 'bootstrap' });
    expect(await sites.authenticate(TEST_SITE_ID, `${TEST_API_KEY}x`)).toBeNull();
    expect(await sites.authenticate('site_unknown', TEST_API_KEY)).toBeNull();
    expect(await sites.authenticate(TEST_SITE_ID, '')).toBeNull();
  });

  it('stores only a hash of the key, and a new VENDOR_API_KEY replaces the old one at start', async () => {
    const { gateway } = await testGateway();
    const row = await gateway.database.db.selectFrom('sites').selectAll().where('site_id', '=', TEST_SITE_ID).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(TEST_API_KEY);
    await gateway.services.sites.ensureBootstrap(TEST_SITE_ID, 'rotated-key');
    expect(await gateway.services.sites.authenticate(TEST_SITE_ID, TEST_API_KEY)).toBeNull();
    expect(await gateway.services.sites.authenticate(TEST_SITE_ID, 'rotated-key')).not.toBeNull();
  });

  it('creates a merchant site inside a transaction, with a fresh key that authenticates it', async () => {
    const { gateway } = await testGateway();
    const created = await gateway.database.db.transaction().execute((trx) => gateway.services.sites.createMerchantSite(trx, TEST_SITE_ID));
    expect(created.siteId).not.toBe(TEST_SITE_ID);
    expect(await gateway.services.sites.authenticate(created.siteId, created.apiKey)).toMatchObject({ kind: 'merchant', parentSiteId: TEST_SITE_ID });
  });

  it('rolls a merchant site back with its transaction', async () => {
    const { gateway } = await testGateway();
    let siteId = '';
    await expect(
      gateway.database.db.transaction().execute(async (trx) => {
        siteId = (await gateway.services.sites.createMerchantSite(trx, TEST_SITE_ID)).siteId;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await gateway.services.sites.find(siteId)).toBeNull();
  });
});

describe('outbox writer', () => {
  it('keeps a notification only if its transaction commits', async () => {
    const { gateway, clock } = await testGateway();
    const db = gateway.database.db;
    const kept = await db.transaction().execute((trx) =>
      queueNotification(trx, '/accountupdatenotification', { accountId: 'a1' } as AccountUpdateBody, { subject: 'a1', now: clock.now() }),
    );
    await expect(
      db.transaction().execute(async (trx) => {
        await queueNotification(trx, '/accountupdatenotification', { accountId: 'a2' } as AccountUpdateBody, { now: clock.now() });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = await db.selectFrom('outbox_notifications').selectAll().execute();
    expect(rows.map((r) => r.id)).toEqual([kept.id]);
    expect(rows[0]).toMatchObject({ status: 'PENDING', attempt_count: 0, next_attempt_at: clock.now(), subject: 'a1' });
    expect(JSON.parse(rows[0]!.body)).toEqual({ accountId: 'a1' });
  });
});
