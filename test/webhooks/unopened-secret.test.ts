/**
 * An attempt the gateway could not make is not the endpoint's failure (docs/merchant-webhooks.md#disabling-and-recovery):
 * when no key of this instance opens the endpoint's secret or the message's body (an instance started with another
 * VAULT_KEY wrote it), nothing reaches the receiver, the attempt is recorded with why, and the endpoint's health is
 * left alone. Before, such attempts ran as the endpoint's failures: after ENDPOINT_DISABLE_AFTER the merchant's
 * endpoint was disabled, though its receiver had never been asked.
 */
import { describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { deliveriesOf, endpointAt, hooks, merchantSite, turnUntil, webhookGateway, type Site } from './support.ts';

async function notify(t: TestGateway, site: Site): Promise<void> {
  const res = await t.rest('POST', '/v2/accounts/profile-access/ev-unopened', profileAccess({ accountId: 'acct-unopened', accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const OTHER_KEY_ID = 'abcdef012345';
/** A sealed value whose key id no key of this gateway has: what an instance with another VAULT_KEY sealed. */
const underAnotherKey = (sealed: string) => sealed.split('.').map((part, i) => (i === 1 ? OTHER_KEY_ID : part)).join('.');

describe('merchant webhooks: an attempt the gateway could not make', () => {
  it('leaves the endpoint healthy and enabled past ENDPOINT_DISABLE_AFTER; the attempts say why; sent once the key is back', async () => {
    const lines: string[] = [];
    const t = await webhookGateway({ ENDPOINT_DISABLE_AFTER: '1h', NOTIFY_RETRY_SCHEDULE: '0,5m,30m,1h' }, lines);
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const { db } = t.gateway.database;
    const [row] = await db.selectFrom('webhook_endpoints').select('secret_sealed').where('id', '=', at.id).execute();
    await db.updateTable('webhook_endpoints').set({ secret_sealed: underAnotherKey(row!.secret_sealed) }).where('id', '=', at.id).execute();

    await notify(t, site);
    const attempts = async () => (await deliveriesOf(t, site, at.id)).reduce((n, d) => n + d.attempts.length, 0);
    await eventually(async () => (await attempts()) === 1);
    for (const minutes of [5, 30, 60]) {
      await t.clock.advance(minutes * 60_000);
      await turnUntil(t, async () => (await attempts()) >= 1 + [5, 30, 60].indexOf(minutes) + 1);
    }
    await t.clock.advance(0);
    const endpoint = (await hooks(t, site, 'GET', `/${at.id}`)).body;
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect(at.receiver.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(t, site, at.id);
    expect(delivery!.attempts).toHaveLength(4);
    expect(delivery!.attempts.map((attempt) => [attempt.statusCode, attempt.error])).toEqual(Array(4).fill([null, expect.stringMatching(/^Not sent: the gateway could not open/u)]));
    // Which key was missing is for the operator: in the log, never in what the merchant reads.
    expect(lines.filter((line) => line.includes('webhook delivery could not be made')).map((line) => JSON.parse(line).error)).toContain(`sealed under vault key id ${OTHER_KEY_ID}, which is neither VAULT_KEY nor in VAULT_PREVIOUS_KEYS`);
    expect(JSON.stringify(delivery)).not.toContain(OTHER_KEY_ID);

    // The operator starts the instance with the right key again (here: the secret as it was sealed); recover sends it.
    await db.updateTable('webhook_endpoints').set({ secret_sealed: row!.secret_sealed }).where('id', '=', at.id).execute();
    const recovered = await hooks(t, site, 'POST', `/${at.id}/recover`, { since: new Date(0).toISOString() });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(202);
    await at.receiver.waitFor(1);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id, 'DELIVERED')).length === 1);
  });
});
