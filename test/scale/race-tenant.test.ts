/**
 * Accounts per site under a race (docs/platform.md#accounts, docs/merchant-webhooks.md#ownership): two real server
 * processes on one PostgreSQL schema and one Redis; the bootstrap site and a merchant send concurrent decisions for
 * one account id, spread over both instances. Each site's account keeps its own status, velocity and
 * notifications. A merchant key replaced on one instance is refused by the other at once (docs/platform.md#credentials).
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { describe, expect, it } from 'vitest';
import { sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';
import { staffQuery } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'race-admin';
const BOOTSTRAP = { id: 'site_race', apiKey: 'race-api-key-0123456789abcdef' };
const EVENT_TIME = Date.UTC(2026, 10, 22, 15, 0, 0);
const PER_SITE = 4;

function headers(site: { id: string; apiKey: string }): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${site.id}:${site.apiKey}`).toString('base64')}`,
    'x-vendor-siteid': site.id,
    'api-version': '10.3',
  };
}

async function post(url: string, site: { id: string; apiKey: string }, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: headers(site), body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

const staff = (base: string, query: string, variables?: Record<string, unknown>) => staffQuery(base, ADMIN, query, variables);

/** Two server processes on one fresh PostgreSQL schema and one Redis, and a merchant created through the first. */
async function twoInstancesAndAMerchant(schema: string, merchant: { merchantId: string; name: string }) {
  const shared = sharedInstancesEnv(schema);
  afterThisTest(shared.cleanup);
  const env = { ...shared.env, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn', VENDOR_SITE_ID: BOOTSTRAP.id, VENDOR_API_KEY: BOOTSTRAP.apiKey };
  const a = await startProcess(env); // migrates first
  const b = await startProcess(env);
  const created = await post(`${a.url}/merchants`, BOOTSTRAP, { defaultMerchantCategoryCode: '5411', ...merchant });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { a, b, merchant: { id: created.body.id as string, apiKey: created.body.apiKey as string } };
}

const profileAccess = (i: number, email: string) => ({
  accountId: 'acct-1',
  eventTime: EVENT_TIME + i * 1_000,
  accountOwner: { email },
  connectionInformation: { customerIP: '203.0.113.7', userAgent: 'race' },
});

describe.skipIf(!DATABASE || !REDIS)(
  `accounts per site on several instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it("keeps each site's account, velocity and notifications its own under concurrent decisions on two instances", { timeout: 60_000 }, async () => {
      const { a, b, merchant } = await twoInstancesAndAMerchant('tenant', { merchantId: 'm-race', name: 'Race Shop' });

      // The bootstrap site's requests are plain (approved while its own velocity allows), the merchant's decline
      // (a sandbox address); the merchant's events come first in time, so a shared history would count them.
      const sends = Array.from({ length: PER_SITE }, (_, i) => [
        { site: merchant, instance: i % 2 ? a : b, event: `m-${i}`, body: profileAccess(i, 'decline@vendor.test') },
        { site: BOOTSTRAP, instance: i % 2 ? b : a, event: `s-${i}`, body: profileAccess(PER_SITE + i, 'ada@example.com') },
      ]).flat();
      const answers = await Promise.all(
        sends.map(({ site, instance, event, body }) => post(`${instance.url}/v2/accounts/profile-access/${event}`, site, body).then((r) => ({ site, ...r }))),
      );
      expect(answers.every((r) => r.status === 200)).toBe(true);
      const decisionsOf = (site: { id: string }) => answers.filter((r) => r.site === site).map((r) => [r.body.vendorDecision, r.body.reasonCodes]);
      expect(decisionsOf(BOOTSTRAP)).toEqual(Array.from({ length: PER_SITE }, () => ['APPROVE', []]));
      expect(decisionsOf(merchant)).toEqual(Array.from({ length: PER_SITE }, () => ['DECLINE', ['SANDBOX_EMAIL']]));

      // One notification per site: its account was created once, with one status, and never moved by the other.
      const sent = await staff(a.url, '{ notifications(type: [ACCOUNT_UPDATE]) { edges { node { body } } } }');
      const bodies = sent.notifications.edges.map((e: any) => JSON.parse(e.node.body));
      const of = (siteId: string) => bodies.filter((x: any) => x.linkToAccountInDashboard.endsWith(`?site=${siteId}`)).map((x: any) => x.vendorDecision);
      expect({ total: bodies.length, [BOOTSTRAP.id]: of(BOOTSTRAP.id), [merchant.id]: of(merchant.id) }).toEqual({
        total: 2,
        [BOOTSTRAP.id]: ['ACTIVATE'],
        [merchant.id]: ['DEACTIVATE'],
      });

      const accounts = await staff(b.url, '{ accounts(accountId: "acct-1") { siteId status decisions { eventId } } }');
      const bySite = Object.fromEntries(accounts.accounts.map((x: any) => [x.siteId, { status: x.status, events: x.decisions.map((d: any) => d.eventId).sort() }]));
      expect(bySite).toEqual({
        [BOOTSTRAP.id]: { status: 'ACTIVATE', events: ['s-0', 's-1', 's-2', 's-3'] },
        [merchant.id]: { status: 'DEACTIVATE', events: ['m-0', 'm-1', 'm-2', 'm-3'] },
      });
    });

    it('replaces a merchant key on one instance and the other refuses the old key at once; of two replacements racing, one key works', { timeout: 60_000 }, async () => {
      const { a, b, merchant } = await twoInstancesAndAMerchant('keys', { merchantId: 'm-keys', name: 'Key Shop' });
      const { id } = merchant;
      const enroll = (url: string, apiKey: string) => post(`${url}/merchants/${id}/3ds-recommendation`, { id, apiKey }, { offerings: { psd2: true } }).then((r) => r.status);
      const replace = async (url: string) => {
        const response = await fetch(`${url}/merchants/${id}/api-key`, { method: 'POST', headers: headers(BOOTSTRAP) });
        expect(response.status).toBe(200);
        return ((await response.json()) as { apiKey: string }).apiKey;
      };

      const first = await replace(a.url);
      expect(await enroll(b.url, merchant.apiKey)).toBe(401);
      expect(await enroll(b.url, first)).toBe(200);

      // Two replacements at once, one on each instance: the key stored last is the only one that works, on both.
      const keys = await Promise.all([replace(a.url), replace(b.url)]);
      const working = await Promise.all(keys.map(async (key) => [await enroll(a.url, key), await enroll(b.url, key)]));
      expect(working.map(([onA, onB]) => `${onA} ${onB}`).sort()).toEqual(['200 200', '401 401']);
      expect(await enroll(a.url, first)).toBe(401);
    });
  },
);
