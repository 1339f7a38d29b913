/**
 * Endpoint health (docs/merchant-webhooks.md#disabling-and-recovery): 410 disables at once; Retry-After throttles that
 * endpoint only; ENDPOINT_DISABLE_AFTER of continuous failure disables (the clock is moved, nothing sleeps); a
 * disabled endpoint keeps its messages and sends them once enabled; recover makes FAILED deliveries due; the test
 * event; secret rotation verified with the old and the new secret by the standardwebhooks library.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { deliveriesOf, endpointAt, hooks, merchantSite, recorded, turnUntil, webhookGateway, type Site } from './support.ts';

let accounts = 0;
/** One /accountupdatenotification of `site`, from its real trigger (an account decision that needs verification). */
async function notify(t: TestGateway, site: Site): Promise<void> {
  accounts += 1;
  const res = await t.rest('POST', `/v2/accounts/profile-access/ev-${accounts}`, profileAccess({ accountId: `acct-${accounts}`, accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const endpoint = async (t: TestGateway, site: Site, id: string) => (await hooks(t, site, 'GET', `/${id}`)).body;

describe('merchant webhooks: endpoint health', () => {
  it('410 Gone disables the endpoint at once, with a staff notice, a warn line and a metric; another endpoint goes on', async () => {
    const lines: string[] = [];
    const t = await webhookGateway({}, lines);
    const site = await merchantSite(t);
    const gone = await endpointAt(t, site);
    const other = await endpointAt(t, site);
    const notices = (await t.gateway.services.webhooks.disabledEvents())[Symbol.asyncIterator]();
    const notice = notices.next();
    gone.receiver.failNext(1, { status: 410 });
    await notify(t, site);
    await other.receiver.waitFor(1);
    expect((await notice).value).toMatchObject({ endpointId: gone.id, siteId: site.id, url: gone.receiver.url, reason: expect.stringMatching(/410/u) });
    await notices.return?.();
    const warned = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'webhook endpoint disabled');
    expect(warned).toMatchObject([{ level: 'warn', endpointId: gone.id, siteId: site.id, host: new URL(gone.receiver.url).host }]);
    expect(lines.join('\n')).not.toContain(gone.secret.slice(6));
    const metrics = await t.rest('GET', '/metrics');
    expect(String(metrics.body)).toMatch(/^sleeve_webhook_endpoints_disabled_total\{reason="gone"\} 1$/mu);
    expect(await endpoint(t, site, gone.id)).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410 Gone/u) });
    // Disabled: sent nothing more, while the other endpoint gets every notification; the kept delivery is PENDING.
    await notify(t, site);
    await other.receiver.waitFor(2);
    await recorded(t, site, other);
    await t.clock.advance(10 * 60_000);
    expect(gone.receiver.requests).toHaveLength(1);
    expect((await deliveriesOf(t, site, gone.id)).map((d) => d.status)).toEqual(['PENDING', 'PENDING']);
    // Enabled again: what it kept is sent.
    expect((await hooks(t, site, 'PATCH', `/${gone.id}`, { enabled: true })).body).toMatchObject({ enabled: true, disabledReason: null });
    await turnUntil(t, () => gone.receiver.distinct().length === 2);
    await turnUntil(t, async () => (await deliveriesOf(t, site, gone.id)).every((d) => d.status === 'DELIVERED'));
  });

  it('Retry-After on a 429 throttles that endpoint only, until the time it asked for', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const busy = await endpointAt(t, site);
    const calm = await endpointAt(t, site);
    busy.receiver.failNext(1, { status: 429, headers: { 'retry-after': '120' } });
    await notify(t, site);
    await eventually(() => busy.receiver.requests.length === 1 && calm.receiver.requests.length === 1);
    await recorded(t, site, busy);
    expect(Date.parse((await endpoint(t, site, busy.id)).throttledUntil)).toBe(t.clock.now() + 120_000);
    await notify(t, site);
    await calm.receiver.waitFor(2);
    await recorded(t, site, calm);
    await recorded(t, site, busy);
    // The schedule's 5 s retry comes and goes: the throttled endpoint is sent nothing before its 120 s.
    await t.clock.advance(60_000);
    await t.clock.advance(0);
    expect(busy.receiver.requests).toHaveLength(1);
    await t.clock.advance(61_000);
    await turnUntil(t, () => busy.receiver.distinct().length === 2 && busy.receiver.requests.length === 3);
    expect(calm.receiver.requests).toHaveLength(2);
  });

  it('a Retry-After beyond a day throttles for a day, in seconds or as a date', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    for (const retryAfter of ['99999999999', new Date(Date.UTC(5195, 0, 1)).toUTCString()]) {
      const busy = await endpointAt(t, site, { eventTypes: ['accountupdatenotification'] });
      busy.receiver.failNext(1, { status: 503, headers: { 'retry-after': retryAfter } });
      await notify(t, site);
      await busy.receiver.waitFor(1);
      await recorded(t, site, busy);
      expect(Date.parse((await endpoint(t, site, busy.id)).throttledUntil)).toBe(t.clock.now() + 24 * 3600_000);
      await hooks(t, site, 'DELETE', `/${busy.id}`);
    }
  });

  it('an endpoint failing every attempt for ENDPOINT_DISABLE_AFTER is disabled; recover after enabling sends the FAILED ones', async () => {
    const t = await webhookGateway({ ENDPOINT_DISABLE_AFTER: '1h', NOTIFY_RETRY_SCHEDULE: '0,5m,30m,1h' });
    const site = await merchantSite(t);
    const failing = await endpointAt(t, site);
    failing.receiver.failNext(4); // every attempt of the schedule: 0, 5m, 30m, 1h
    const started = t.clock.now();
    await notify(t, site);
    await failing.receiver.waitFor(1);
    await recorded(t, site, failing);
    await t.clock.advance(5 * 60_000);
    await failing.receiver.waitFor(2);
    await recorded(t, site, failing);
    await t.clock.advance(30 * 60_000);
    await failing.receiver.waitFor(3);
    await recorded(t, site, failing);
    expect((await endpoint(t, site, failing.id)).enabled).toBe(true); // 35 minutes of failure: not yet
    await t.clock.advance(60 * 60_000);
    await failing.receiver.waitFor(4);
    await turnUntil(t, async () => (await endpoint(t, site, failing.id)).enabled === false);
    const disabled = await endpoint(t, site, failing.id);
    // Said to the merchant: how long, not the operator's setting or a raw timestamp.
    expect(disabled.disabledReason).toBe('Every attempt failed for 95 minutes.');
    expect(Date.parse(disabled.failingSince)).toBe(started);
    // The last step of the schedule was spent: the delivery is FAILED and kept.
    expect((await deliveriesOf(t, site, failing.id, 'FAILED')).map((d) => d.attempts.length)).toEqual([4]);

    await hooks(t, site, 'PATCH', `/${failing.id}`, { enabled: true });
    const recovered = await hooks(t, site, 'POST', `/${failing.id}/recover`, { since: new Date(started - 1_000).toISOString() });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(202);
    expect(recovered.body).toEqual({ recovered: 1 });
    await failing.receiver.waitFor(5);
    await turnUntil(t, async () => (await deliveriesOf(t, site, failing.id, 'DELIVERED')).length === 1);
  });

  it('a success ends the run of failures: a failure hours later starts a new run and disables nothing', async () => {
    const t = await webhookGateway({ ENDPOINT_DISABLE_AFTER: '1h', NOTIFY_RETRY_SCHEDULE: '0,5m,30m,1h' });
    const site = await merchantSite(t);
    const flaky = await endpointAt(t, site);
    flaky.receiver.failNext(1);
    const firstFailure = t.clock.now();
    await notify(t, site);
    await flaky.receiver.waitFor(1);
    await recorded(t, site, flaky);
    expect(Date.parse((await endpoint(t, site, flaky.id)).failingSince)).toBe(firstFailure);
    await t.clock.advance(5 * 60_000); // the retry is answered 200
    await flaky.receiver.waitFor(2);
    await recorded(t, site, flaky);
    expect((await endpoint(t, site, flaky.id)).failingSince).toBeNull();

    await t.clock.advance(2 * 60 * 60_000); // past ENDPOINT_DISABLE_AFTER counted from the first failure
    flaky.receiver.failNext(1);
    const secondFailure = t.clock.now();
    await notify(t, site);
    await flaky.receiver.waitFor(3);
    await recorded(t, site, flaky);
    const after = await endpoint(t, site, flaky.id);
    expect(after.enabled).toBe(true);
    expect(Date.parse(after.failingSince)).toBe(secondFailure);
  });

  it('recover makes every FAILED delivery since a time due again, with the same webhook-id; none before it', async () => {
    const t = await webhookGateway({ NOTIFY_RETRY_SCHEDULE: '0' });
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    at.receiver.failNext(1);
    await notify(t, site);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id, 'FAILED')).length === 1);
    const later = new Date(t.clock.now() + 1_000).toISOString();
    await t.clock.advance(2_000);
    expect((await hooks(t, site, 'POST', `/${at.id}/recover`, { since: later })).body).toEqual({ recovered: 0 });
    const res = await hooks(t, site, 'POST', `/${at.id}/recover`, { since: new Date(t.clock.now() - 60_000).toISOString() });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ recovered: 1 });
    await at.receiver.waitFor(2);
    expect(at.receiver.requests[1]!.headers['webhook-id']).toBe(at.receiver.requests[0]!.headers['webhook-id']);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id, 'DELIVERED')).length === 1);
  });

  it('a test event goes, signed, to that endpoint only', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const other = await endpointAt(t, site);
    const res = await hooks(t, site, 'POST', `/${at.id}/test`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ eventType: 'webhook-test', status: 'PENDING' });
    const [request] = await at.receiver.waitFor(1);
    expect(request!.path).toBe('/webhook-test');
    expect(request!.headers['webhook-id']).toBe(res.body.webhookId);
    expect(new Webhook(at.secret).verify(request!.raw, request!.headers as Record<string, string>)).toMatchObject({ type: 'WEBHOOK_TEST', endpointId: at.id, siteId: site.id });
    await t.clock.advance(1_000);
    expect(other.receiver.requests).toEqual([]);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id))[0]!.status === 'DELIVERED');

    // Redelivered (the portal's button): due again with the same webhook-id; not through another endpoint's path.
    const path = `/${at.id}/deliveries/${res.body.id}/redeliver`;
    expect((await hooks(t, site, 'POST', `/${other.id}/deliveries/${res.body.id}/redeliver`)).status).toBe(404);
    const again = await hooks(t, site, 'POST', path);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body).toMatchObject({ webhookId: res.body.webhookId, status: 'PENDING' });
    const [, second] = await at.receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(res.body.webhookId);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id))[0]!.attempts.length === 2);
  });

  it('redeliver of a delivery waiting for its next attempt sends it now, not at its schedule\'s next step', async () => {
    const t = await webhookGateway({ NOTIFY_RETRY_SCHEDULE: '0,10h' });
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    at.receiver.failNext(1);
    await notify(t, site);
    await at.receiver.waitFor(1);
    const [waiting] = await turnUntil(t, async () => {
      const found = await deliveriesOf(t, site, at.id);
      return found[0]?.attempts.length === 1 && found[0].status === 'PENDING' ? found : null;
    });
    const again = await hooks(t, site, 'POST', `/${at.id}/deliveries/${waiting!.id}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(Date.parse(again.body.nextAttemptAt)).toBeLessThanOrEqual(t.clock.now());
    // The clock stands still: before, the second attempt came only 10 hours on.
    const [, second] = await at.receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(at.receiver.requests[0]!.headers['webhook-id']);
    await turnUntil(t, async () => (await deliveriesOf(t, site, at.id, 'DELIVERED')).length === 1);
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const rotated = await hooks(t, site, 'POST', `/${at.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    expect(secret).not.toBe(at.secret);
    await notify(t, site);
    const [during] = await at.receiver.waitFor(1);
    await recorded(t, site, at);
    const headers = during!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(during!.raw, headers)).toEqual(during!.body);
    expect(new Webhook(at.secret).verify(during!.raw, headers)).toEqual(during!.body);

    // A jump: advancing would run every job's minute poll 1,440 times, 13 s on PostgreSQL (over 30 s on a busy CI).
    await t.clock.jump(24 * 3_600_000 + 1_000);
    await notify(t, site);
    const [, after] = await at.receiver.waitFor(2);
    const signatures = String(after!.headers['webhook-signature']).split(' ');
    const signed = (key: string) => 'v1,' + createHmac('sha256', Buffer.from(key.slice(6), 'base64')).update(`${after!.headers['webhook-id']}.${after!.headers['webhook-timestamp']}.${after!.raw}`).digest('base64');
    expect(signatures).toEqual([signed(secret)]);
    expect((await endpoint(t, site, at.id)).previousSecretExpiresAt).toBeNull();
  });
});
