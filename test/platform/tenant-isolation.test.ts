/**
 * Accounts, their decision history and their velocity are kept per site (docs/platform.md#accounts,
 * docs/merchant-webhooks.md#ownership): one merchant's traffic never moves another merchant's decisions, status or
 * notifications, staff address an account by site and id, and the processor challenge answers only for the very
 * site's accounts (sleeve order emails for the bootstrap site alone).
 */
import { describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { call, createMerchant, EVENT_TIME, outbox, platformHeaders, profileAccess } from './support.ts';

type SiteKey = { id: string; apiKey: string } | undefined;

async function decideAs(t: TestGateway, site: SiteKey, eventId: string, body: Record<string, unknown>) {
  const res = await call(t, 'POST', `/v2/accounts/profile-access/${eventId}`, body, platformHeaders(t, site));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { vendorDecision: string; reasonCodes: string[] };
}

const staff = (t: TestGateway, query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, { token: t.adminToken });
const link = (siteId: string, accountId: string) => `http://sleeve.test/staff#/accounts/${accountId}?site=${siteId}`;

const ACCOUNT = `query($id: ID!, $site: String) { account(accountId: $id, siteId: $site) { siteId accountId status decisions { eventId siteId vendorDecision } } }`;
const REVIEW = `mutation($id: ID!, $site: String, $decision: AccountDecision!) {
  reviewAccount(accountId: $id, siteId: $site, decision: $decision, reasons: ["checked"]) { siteId accountId status }
}`;

describe('accounts per site', () => {
  it("merchant B's requests for an account id never move merchant A's velocity, status or notifications", async () => {
    const t = await testGateway();
    const b = await createMerchant(t);
    const a = t.siteId;
    const at = (i: number) => ({ eventTime: EVENT_TIME + i * 1_000 });

    // B's five requests for acct-1 (all approved: each has at most four earlier ones of B).
    for (let i = 1; i <= 5; i++) expect((await decideAs(t, b, `b-${i}`, profileAccess(at(i)))).vendorDecision).toBe('APPROVE');
    // A's first request for its own acct-1: B's traffic is not A's history.
    await t.clock.advance(1_000);
    expect(await decideAs(t, undefined, 'a-1', profileAccess(at(6)))).toEqual(expect.objectContaining({ vendorDecision: 'APPROVE', reasonCodes: [] }));
    // B's sixth request is B's own velocity at work; A's next one is still approved.
    await t.clock.advance(1_000);
    expect(await decideAs(t, b, 'b-6', profileAccess(at(7)))).toEqual(expect.objectContaining({ vendorDecision: 'DECLINE', reasonCodes: ['ACCOUNT_VELOCITY'] }));
    await t.clock.advance(1_000);
    expect((await decideAs(t, undefined, 'a-2', profileAccess(at(8)))).vendorDecision).toBe('APPROVE');

    // Each site's account has its own status and history.
    const ofA = await staff(t, ACCOUNT, { id: 'acct-1', site: a });
    expect(ofA.data.account).toEqual({
      siteId: a,
      accountId: 'acct-1',
      status: 'ACTIVATE',
      decisions: [
        { eventId: 'a-1', siteId: a, vendorDecision: 'APPROVE' },
        { eventId: 'a-2', siteId: a, vendorDecision: 'APPROVE' },
      ],
    });
    const ofB = await staff(t, ACCOUNT, { id: 'acct-1', site: b.id });
    expect(ofB.data.account).toMatchObject({ siteId: b.id, status: 'DEACTIVATE' });
    expect(ofB.data.account.decisions.map((d: { eventId: string }) => d.eventId)).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'b-5', 'b-6']);
    const both = await staff(t, '{ accounts(accountId: "acct-1") { siteId status } }');
    expect(both.data.accounts).toEqual(
      [{ siteId: a, status: 'ACTIVATE' }, { siteId: b.id, status: 'DEACTIVATE' }].sort((x, y) => (x.siteId < y.siteId ? -1 : 1)),
    );
    // Without a site the id is now ambiguous: staff must say which.
    const ambiguous = await staff(t, ACCOUNT, { id: 'acct-1' });
    expect(ambiguous.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'siteId' });

    // Each change notified once, for its own site's account.
    const sent = (await outbox(t, '/accountupdatenotification')).map((n) => [n.body.vendorDecision, n.body.linkToAccountInDashboard]);
    expect(sent).toEqual([
      ['ACTIVATE', link(b.id, 'acct-1')],
      ['ACTIVATE', link(a, 'acct-1')],
      ['DEACTIVATE', link(b.id, 'acct-1')],
    ]);

    // A staff review of A's account changes A's alone.
    await t.clock.advance(1_000);
    const reviewed = await staff(t, REVIEW, { id: 'acct-1', site: a, decision: 'RESTRICT_POLICY' });
    expect(reviewed.data.reviewAccount).toEqual({ siteId: a, accountId: 'acct-1', status: 'RESTRICT_POLICY' });
    expect((await staff(t, ACCOUNT, { id: 'acct-1', site: b.id })).data.account.status).toBe('DEACTIVATE');
    expect((await outbox(t, '/accountupdatenotification')).at(-1)!.body).toMatchObject({ vendorDecision: 'RESTRICT_POLICY', linkToAccountInDashboard: link(a, 'acct-1') });
    expect((await staff(t, REVIEW, { id: 'acct-1', decision: 'ACTIVATE' })).errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'siteId' });
    // An account held by one site only is still found by its id alone.
    await decideAs(t, b, 'b-only', profileAccess({ ...at(9), accountId: 'only-b' }));
    expect((await staff(t, ACCOUNT, { id: 'only-b' })).data.account).toMatchObject({ siteId: b.id, status: 'ACTIVATE' });
    expect((await staff(t, ACCOUNT, { id: 'only-b', site: a })).data.account).toBeNull();
  });

  it("one site's requests from an IP never count toward another site's IP velocity", async () => {
    const t = await testGateway();
    const b = await createMerchant(t);
    for (let i = 0; i < 10; i++) await decideAs(t, b, `ip-${i}`, profileAccess({ accountId: `other-${i}`, eventTime: EVENT_TIME + i }));
    expect((await decideAs(t, b, 'ip-b', profileAccess({ accountId: 'b-next', eventTime: EVENT_TIME + 20 }))).reasonCodes).toEqual(['IP_VELOCITY']);
    expect(await decideAs(t, undefined, 'ip-a', profileAccess({ accountId: 'a-next', eventTime: EVENT_TIME + 20 }))).toEqual(
      expect.objectContaining({ vendorDecision: 'APPROVE', reasonCodes: [] }),
    );
  });
});

describe('the processor challenge per site (docs/notifications.md#processor-verification-webhook)', () => {
  const path = (site: string, account: string) =>
    `/webhooks/processor/${encodeURIComponent(site)}/${encodeURIComponent(account)}?bt_challenge=20f9f8ed05f77439fe955c977e4c8a53`;

  it("refuses another site's account, and a sleeve order's email to any site but the bootstrap site", async () => {
    const t = await testGateway();
    const b = await createMerchant(t);
    await t.createOrder({ email: 'buyer@example.com' });
    await decideAs(t, undefined, 'c-a', profileAccess({ accountId: 'acct-a' }));
    await decideAs(t, b, 'c-b', profileAccess({ accountId: 'acct-b' }));

    const status = async (site: string, account: string) => (await t.rest('GET', path(site, account))).status;
    expect({
      'A probes its acct-a': await status(t.siteId, 'acct-a'),
      'B probes its acct-b': await status(b.id, 'acct-b'),
      "B probes A's acct-a": await status(b.id, 'acct-a'),
      "A probes B's acct-b": await status(t.siteId, 'acct-b'),
      'the bootstrap site probes a sleeve order email': await status(t.siteId, 'buyer@example.com'),
      'B probes a sleeve order email': await status(b.id, 'buyer@example.com'),
    }).toEqual({
      'A probes its acct-a': 200,
      'B probes its acct-b': 200,
      "B probes A's acct-a": 401,
      "A probes B's acct-b": 401,
      'the bootstrap site probes a sleeve order email': 200,
      'B probes a sleeve order email': 401,
    });
  });
});
