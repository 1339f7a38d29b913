/**
 * What a merchant does to its endpoints, as an outside merchant reviewer tried it (docs/merchant-webhooks.md): a
 * throttle from a Retry-After ends when the merchant says the receiver is fixed (`enabled: true`, a test, a
 * redelivery); a redelivery on a disabled endpoint is refused as a test is, not answered "due now"; a misspelled field
 * is a 400 naming it, not a filter silently widened; a URL pasted with spaces around it is stored as parsed; during
 * a rotation's overlap `/token-updated`'s `signature` verifies with the old secret as well as the new.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { card, CARDS } from '../payments/support.ts';
import type { TestGateway } from '../support/gateway.ts';
import { platformHeaders, profileAccess } from '../platform/support.ts';
import { startReceiver } from '../support/receiver.ts';
import { deliveriesOf, endpointAt, hooks, merchantSite, recorded, turnUntil, webhookGateway, type Site } from './support.ts';

let accounts = 0;
/** One /accountupdatenotification of `site`, from its real trigger. */
async function notify(t: TestGateway, site: Site): Promise<void> {
  accounts += 1;
  const res = await t.rest('POST', `/v2/accounts/profile-access/mc-${accounts}`, profileAccess({ accountId: `acct-mc-${accounts}`, accountOwner: { email: 'verify@vendor.test' } }), platformHeaders(t, { id: site.id, apiKey: site.apiKey }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * An endpoint disabled after 20 s of failure, retried once 30 s after its first attempt, whose receiver fails the
 * next `failures` requests; one notification's first attempt has failed and is recorded.
 */
async function failedOnce(failures: number) {
  const t = await webhookGateway({ ENDPOINT_DISABLE_AFTER: '20s', NOTIFY_RETRY_SCHEDULE: '0,30s' });
  const site = await merchantSite(t);
  const at = await endpointAt(t, site);
  at.receiver.failNext(failures);
  await notify(t, site);
  await at.receiver.waitFor(1);
  await recorded(t, site, at);
  return { t, site, at };
}

/** An endpoint its receiver throttled for a day (429 with a Retry-After far off), its one delivery kept PENDING. */
async function throttledEndpoint(t: TestGateway, site: Site) {
  const at = await endpointAt(t, site);
  at.receiver.failNext(1, { status: 429, headers: { 'retry-after': '99999999999' } });
  await notify(t, site);
  await at.receiver.waitFor(1);
  await recorded(t, site, at);
  expect((await hooks(t, site, 'GET', `/${at.id}`)).body.throttledUntil).not.toBeNull();
  return at;
}

describe('merchant webhooks: what the merchant controls', () => {
  it('PATCH {enabled: true} on a throttled endpoint ends the throttle and sends what it kept, now', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await throttledEndpoint(t, site);
    const patched = await hooks(t, site, 'PATCH', `/${at.id}`, { enabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body.throttledUntil).toBeNull();
    await turnUntil(t, () => at.receiver.requests.length === 2);
    await recorded(t, site, at);
    expect((await deliveriesOf(t, site, at.id)).map((d) => d.status)).toEqual(['DELIVERED']);
  });

  it('a test or a redelivery the merchant asks for goes now, whatever Retry-After the receiver gave', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await throttledEndpoint(t, site);
    const test = await hooks(t, site, 'POST', `/${at.id}/test`);
    expect(test.status).toBe(202);
    await turnUntil(t, () => at.receiver.requests.some((r) => r.path.endsWith('/webhook-test')));

    const other = await throttledEndpoint(t, site);
    const [kept] = await deliveriesOf(t, site, other.id);
    expect((await hooks(t, site, 'POST', `/${other.id}/deliveries/${kept!.id}/redeliver`)).status).toBe(202);
    await turnUntil(t, () => other.receiver.requests.length >= 2);
  });

  it("a new url is a new receiver: what the old one's Retry-After held is sent there now", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await throttledEndpoint(t, site);
    const moved = await startReceiver();
    const patched = await hooks(t, site, 'PATCH', `/${at.id}`, { url: moved.url });
    expect(patched.body.throttledUntil).toBeNull();
    await turnUntil(t, () => moved.requests.length === 1);
    expect(at.receiver.requests).toHaveLength(1);
  });

  it("a new url ends the old receiver's failure run too, as docs/merchant-webhooks.md says", async () => {
    const { t, site, at } = await failedOnce(1);
    expect((await hooks(t, site, 'GET', `/${at.id}`)).body.failingSince).not.toBeNull();
    await t.clock.advance(25_000);
    // Before, the run went on at the new receiver: its first failure disabled the endpoint, with no retry.
    const moved = await startReceiver();
    const patched = await hooks(t, site, 'PATCH', `/${at.id}`, { url: moved.url });
    expect(patched.body).toMatchObject({ enabled: true, failingSince: null });
    // The kept delivery goes there now, and a test: both fail, a new run begins, and nothing is disabled.
    moved.failNext(2);
    expect((await hooks(t, site, 'POST', `/${at.id}/test`)).status).toBe(202);
    await moved.waitFor(2);
    await turnUntil(t, async () => (await hooks(t, site, 'GET', `/${at.id}`)).body.failingSince !== null);
    expect((await hooks(t, site, 'GET', `/${at.id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("an attempt still in flight to the old url when it changed tells nothing of the new receiver: its 410 disables nothing", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    at.receiver.hang(true);
    await notify(t, site);
    await at.receiver.waitFor(1);
    const moved = await startReceiver();
    expect((await hooks(t, site, 'PATCH', `/${at.id}`, { url: moved.url })).status).toBe(200);
    // The old receiver answers only now, and says it is gone; before, that disabled the endpoint at its new url.
    at.receiver.release({ status: 410 });
    await recorded(t, site, at);
    expect((await hooks(t, site, 'GET', `/${at.id}`)).body).toMatchObject({ url: moved.url, enabled: true, failingSince: null, disabledReason: null });
    expect((await hooks(t, site, 'POST', `/${at.id}/test`)).status).toBe(202);
    await turnUntil(t, () => moved.requests.some((r) => r.path === '/webhook-test'));
  });

  it('an endpoint failing for less than two minutes is said to have failed for seconds, not "0 minutes"', async () => {
    const { t, site, at } = await failedOnce(2);
    await t.clock.advance(30_000);
    await at.receiver.waitFor(2);
    await turnUntil(t, async () => (await hooks(t, site, 'GET', `/${at.id}`)).body.enabled === false);
    expect((await hooks(t, site, 'GET', `/${at.id}`)).body.disabledReason).toBe('Every attempt failed for 30 seconds.');
  });

  it('recover refuses a field it does not take (400 naming it), as the endpoint body does, and sends nothing', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const since = new Date(t.clock.now() - 3_600_000).toISOString();
    const refused = await hooks(t, site, 'POST', `/${at.id}/recover`, { since, until: since });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringContaining('until: is not a field') });
    expect((await hooks(t, site, 'POST', `/${at.id}/recover`, { since })).status).toBe(202);
  });

  it('a redelivery or a recover on a disabled endpoint is refused (422) as a test is, and changes nothing', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    await notify(t, site);
    await at.receiver.waitFor(1);
    await recorded(t, site, at);
    const [delivered] = await deliveriesOf(t, site, at.id);
    expect((await hooks(t, site, 'PATCH', `/${at.id}`, { enabled: false })).status).toBe(200);
    const refused = await hooks(t, site, 'POST', `/${at.id}/deliveries/${delivered!.id}/redeliver`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringContaining('enable it first') });
    // recover answered 202 "recovered" here, and the portal said the deliveries were being sent: nothing was.
    const recover = await hooks(t, site, 'POST', `/${at.id}/recover`, { since: new Date(t.clock.now() - 3_600_000).toISOString() });
    expect(recover.status).toBe(422);
    expect(recover.body.message).toContain('enable it first');
    expect((await deliveriesOf(t, site, at.id)).map((d) => d.status)).toEqual(['DELIVERED']);
  });

  it('an unknown field is a 400 naming it; nothing is created or changed', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site, { eventTypes: ['accountupdatenotification'] });
    const typo = await hooks(t, site, 'POST', '', { url: at.receiver.url, event_types: ['token-updated'] });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ status: 'error', message: expect.stringContaining('event_types: is not a field') });
    const off = await hooks(t, site, 'PATCH', `/${at.id}`, { enable: false });
    expect(off.status).toBe(400);
    expect(off.body.message).toContain('enable: is not a field');
    const listed = (await hooks(t, site, 'GET')).body.data as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ enabled: true, eventTypes: ['accountupdatenotification'] });
  });

  it('a URL pasted with spaces around it is stored as parsed, and POSTed to as shown', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const upper = at.receiver.url.replace('http://', 'HTTP://');
    const created = await hooks(t, site, 'POST', '', { url: `  ${upper}/hooks/  ` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.url).toBe(`${at.receiver.url}/hooks`);
    expect((await hooks(t, site, 'POST', `/${created.body.id}/test`)).status).toBe(202);
    await turnUntil(t, () => at.receiver.requests.some((r) => r.path === '/hooks/webhook-test'));
  });

  it("during a rotation's 24 hours /token-updated's signature carries a value per secret, so the old one still verifies", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site, { eventTypes: ['token-updated'] });
    const rotated = (await hooks(t, site, 'POST', `/${at.id}/rotate-secret`)).body.secret as string;
    const hex = (secret: string, raw: string) => createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(raw).digest('hex');
    const update = async (month: number) => {
      expect((await t.rest('POST', '/v1/account-updater/card/update', card(CARDS.ok, { expirationMonth: month, expirationYear: 2032 }), site.auth)).status).toBe(200);
    };
    expect((await t.rest('POST', '/v1/tokenization/tokenize', card(CARDS.ok), site.auth)).status).toBe(200);
    await update(4);
    const [during] = await at.receiver.waitFor(1);
    expect(String(during!.headers.signature).split(' ')).toEqual([hex(rotated, during!.raw), hex(at.secret, during!.raw)]);
    await recorded(t, site, at);
    await t.clock.jump(24 * 3_600_000 + 1_000);
    await update(5);
    const [, after] = await at.receiver.waitFor(2);
    expect(after!.headers.signature).toBe(hex(rotated, after!.raw));
  });

  it('a second rotation inside the first one\'s 24 hours keeps the secret replaced first signing until its own 24 hours end', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const at = await endpointAt(t, site);
    const first = (await hooks(t, site, 'POST', `/${at.id}/rotate-secret`)).body.secret as string;
    await t.clock.jump(3_600_000); // an hour later the secret shown once is lost: rotate again
    const second = (await hooks(t, site, 'POST', `/${at.id}/rotate-secret`)).body.secret as string;
    const verifiedBy = async (count: number) => {
      expect((await hooks(t, site, 'POST', `/${at.id}/test`)).status).toBe(202);
      const request = (await at.receiver.waitFor(count)).at(-1)!;
      await recorded(t, site, at);
      // By hand: the test's clock runs a day ahead of the wall, past standardwebhooks' 5-minute timestamp tolerance.
      const headers = request.headers as Record<string, string>;
      const verifies = (secret: string) =>
        headers['webhook-signature']!.split(' ').includes('v1,' + createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${request.raw}`).digest('base64'));
      return [second, first, at.secret].map(verifies);
    };
    expect(await verifiedBy(1)).toEqual([true, true, true]);
    await t.clock.jump(23 * 3_600_000 + 1_000); // the original secret's 24 hours are over; the first rotated one's are not
    expect(await verifiedBy(2)).toEqual([true, true, false]);
    await t.clock.jump(3_600_000);
    expect(await verifiedBy(3)).toEqual([true, false, false]);
  });
});
