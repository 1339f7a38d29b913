/** Helpers for the decision platform tests: document 3 headers, request bodies, and reading the outbox. */
import { expect } from 'vitest';
import { basicAuth, type RestResult, type TestGateway } from '../support/gateway.ts';
import { schemaProblems } from '../support/receiver.ts';

/** Valid document 3 headers for the bootstrap site, or for `site` (a merchant's id and apiKey). */
export function platformHeaders(t: TestGateway, site?: { id: string; apiKey: string }): Record<string, string> {
  return {
    authorization: site ? basicAuth(site.id, site.apiKey) : t.siteAuthorization,
    'x-vendor-siteid': site?.id ?? t.siteId,
    'api-version': '10.3',
  };
}

export function call(t: TestGateway, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResult> {
  return t.rest(method, path, body, { ...platformHeaders(t), ...headers });
}

export const EVENT_TIME = Date.UTC(2026, 10, 22, 15, 0, 0);

/** A profile access body that no rule objects to. */
export function profileAccess(change: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accountId: 'acct-1',
    eventTime: EVENT_TIME,
    accountOwner: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    connectionInformation: { customerIP: '203.0.113.7', userAgent: 'test' },
    ...change,
  };
}

/** An item listing body that no rule objects to. */
export function itemListing(change: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accountId: 'seller-1',
    eventTime: EVENT_TIME,
    connectionInformation: { customerIP: '198.51.100.4', userAgent: 'test' },
    accountData: { emailsInAccount: [{ email: 'seller@example.com', emailVerification: { sent: true, verified: true } }] },
    listedItems: [{ basicItemData: { name: 'Sleeve', price: 40, quantity: 1, type: 'physical' } }],
    ...change,
  };
}

export async function decide(t: TestGateway, kind: 'profile-access' | 'item-listing', eventId: string, body: Record<string, unknown>) {
  const res = await call(t, 'POST', `/v2/accounts/${kind}/${eventId}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string; vendorDecision: string; reasonCodes: string[]; recommendations: string[]; correlationId: string };
}

/** The outbox rows of one path, oldest first; each body must pass its document 2 JSON schema. */
export async function outbox(t: TestGateway, path: string) {
  const rows = await t.gateway.database.db
    .selectFrom('outbox_notifications')
    .selectAll()
    .where('path', '=', path)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(schemaProblems(path, body)).toEqual([]);
    return { ...r, body };
  });
}

export async function createMerchant(t: TestGateway, change: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await call(t, 'POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Corner Shop', ...change }, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; apiKey: string; name: string };
}
