/**
 * What a new message wakes (docs/merchant-webhooks.md#isolation): only the endpoints it was queued for, and the
 * MERCHANT_ENDPOINT dispatcher only for a message that waits for it. Before, every new message of any site swept
 * every merchant endpoint, a claim at each (a transaction each on SQLite), and woke the MERCHANT_ENDPOINT dispatcher
 * too. Asserted on the statements the drivers ran, read at their entry points: which endpoints' deliveries were
 * touched, and whether the outbox was claimed from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.ts';
import { recordStatements, type Statement } from '../support/statements.ts';
import type { TestGateway } from '../support/gateway.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { bootstrapSite, endpointAt, merchantSite, recorded, webhookGateway, type Site } from './support.ts';

const OTHER_SITES = 6;
let accounts = 0;
async function notify(t: TestGateway, site: Site): Promise<void> {
  accounts += 1;
  const res = await t.rest('POST', `/v2/accounts/profile-access/wake-${accounts}`, profileAccess({ accountId: `wake-${accounts}` }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The endpoints whose deliveries the statements read or wrote (an endpoint id among a deliveries statement's parameters). */
const endpointsTouched = (statements: Statement[], endpoints: string[]) =>
  new Set(statements.filter((s) => s.sql.includes('"webhook_deliveries"')).flatMap((s) => s.params.filter((p): p is string => endpoints.includes(p as string))));
const outboxClaims = (statements: Statement[]) => statements.filter((s) => /update "outbox_notifications" set "lease_owner"/u.test(s.sql));

let recording: ReturnType<typeof recordStatements> | undefined;
afterEach(() => recording?.stop());

describe('merchant webhooks: what a new message wakes', () => {
  it("claims only at its own site's endpoint, however many others there are, and leaves the MERCHANT_ENDPOINT dispatcher asleep", async () => {
    const merchantEndpoint = await startReceiver();
    const t = await webhookGateway({ MERCHANT_ENDPOINT: merchantEndpoint.url });
    const site = await merchantSite(t);
    const own = await endpointAt(t, site);
    const others = [];
    for (let i = 0; i < OTHER_SITES; i++) others.push(await endpointAt(t, await merchantSite(t)));
    const all = [own.id, ...others.map((o) => o.id)];

    recording = recordStatements();
    await notify(t, site);
    await own.receiver.waitFor(1);
    await recorded(t, site, own);
    // A pass that would sweep every endpoint has had its turn by now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    recording.stop();

    expect([...endpointsTouched(recording.statements, all)]).toEqual([own.id]);
    expect(outboxClaims(recording.statements)).toEqual([]);
    for (const other of others) expect(other.receiver.requests).toEqual([]);
  });

  it('a message for MERCHANT_ENDPOINT alone claims at no merchant endpoint', async () => {
    const merchantEndpoint = await startReceiver();
    const t = await webhookGateway({ MERCHANT_ENDPOINT: merchantEndpoint.url });
    const endpoints = [];
    for (let i = 0; i < OTHER_SITES; i++) endpoints.push(await endpointAt(t, await merchantSite(t)));

    recording = recordStatements();
    await notify(t, bootstrapSite(t));
    await merchantEndpoint.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    recording.stop();

    expect([...endpointsTouched(recording.statements, endpoints.map((e) => e.id))]).toEqual([]);
    expect(outboxClaims(recording.statements).length).toBeGreaterThan(0);
  });
});
