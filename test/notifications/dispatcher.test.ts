/**
 * The outbox dispatcher against a real receiver (docs/notifications.md#delivery-and-retries): headers, signatures, retries on the schedule
 * (moved clock), Retry-After, FAILED after the schedule, redelivery with the same ids, and no delivery at all
 * without MERCHANT_ENDPOINT. Every body the receiver gets is checked against its JSON schema.
 */
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { standardWebhooksSecret } from '../../src/notifications/signing.ts';
import { testGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';
import { attempted, listNotifications, notifyingGateway, openClaim, SIGNING_KEY, turnUntil } from './helpers.ts';

describe('the dispatcher', () => {
  it('POSTs an evidence request with JSON headers and Standard Webhooks headers the public library verifies', async () => {
    const t = await notifyingGateway();
    const claim = await openClaim(t);
    const [request] = await t.receiver.waitFor(1);
    expect(request!.path).toBe('/requestforevidencenotification');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.accept).toBe('application/json');
    const verified = new Webhook(standardWebhooksSecret(SIGNING_KEY)).verify(request!.raw, request!.headers as Record<string, string>);
    expect(verified).toEqual(request!.body);
    expect(request!.body.uniqueMessageId).toBe(request!.headers['webhook-id']);
    expect(request!.body.claimId).toBe(Number(claim.claimId));
    expect(request!.headers.signature).toBeUndefined(); // only /token-updated carries `signature`
    expect(t.receiver.schemaErrors).toEqual([]);
    const delivered = await turnUntil(t, async () => (await listNotifications(t, { status: ['DELIVERED'] })).find((n) => n.attemptCount === 1));
    expect(delivered).toMatchObject({ id: request!.headers['webhook-id'], status: 'DELIVERED', attemptCount: 1, attempts: [{ attempt: 1, statusCode: 200, error: null }] });
  });

  it('rejects a body whose signature was made with another key', async () => {
    const t = await notifyingGateway();
    await openClaim(t);
    const [request] = await t.receiver.waitFor(1);
    expect(() => new Webhook(standardWebhooksSecret('another-key')).verify(request!.raw, request!.headers as Record<string, string>)).toThrow();
  });

  it('retries a receiver that fails twice on the schedule, with the same ids each time, and records every attempt', async () => {
    const t = await notifyingGateway();
    t.receiver.failNext(2, { status: 500, body: 'busy' });
    await openClaim(t);
    await t.receiver.waitFor(1);
    const id = t.receiver.requests[0]!.headers['webhook-id'] as string;
    await attempted(t, id, 1);

    await t.clock.advance(4_900); // NOTIFY_RETRY_SCHEDULE=0,5s,5m: the second attempt waits 5 s
    await new Promise((r) => setTimeout(r, 100));
    expect(t.receiver.requests).toHaveLength(1);
    await t.clock.advance(100);
    await turnUntil(t, () => t.receiver.requests.length === 2);
    await attempted(t, id, 2);

    await t.clock.advance(4 * 60_000); // the third waits 5 minutes
    expect(t.receiver.requests).toHaveLength(2);
    await t.clock.advance(60_000);
    await turnUntil(t, () => t.receiver.requests.length === 3);
    const done = await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.id === id && n.status === 'DELIVERED'));

    const ids = t.receiver.requests.map((r) => [r.headers['webhook-id'], r.body.uniqueMessageId]);
    expect(ids).toEqual([[id, id], [id, id], [id, id]]);
    expect(done.attempts.map((a: any) => [a.attempt, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 500, 'busy'],
      [2, 500, 'busy'],
      [3, 200, null],
    ]);
    expect(done.attempts.every((a: any) => a.durationMs >= 0)).toBe(true);
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  it('times out a receiver that never answers after 10 s, retries on the schedule, then marks it FAILED', async () => {
    const t = await notifyingGateway({ NOTIFY_RETRY_SCHEDULE: '0,5s,1m' });
    t.receiver.hang(true);
    await openClaim(t);
    for (const [n, wait] of [[1, 0], [2, 5_000], [3, 60_000]] as const) {
      await t.clock.advance(wait);
      await turnUntil(t, () => t.receiver.requests.length === n);
      await t.clock.advance(10_000); // the timeout runs on the clock
      const id = t.receiver.requests[0]!.headers['webhook-id'] as string;
      await attempted(t, id, n);
    }
    const [failed] = await listNotifications(t);
    expect(failed.status).toBe('FAILED');
    expect(failed.nextAttemptAt).toBeNull();
    expect(failed.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([
      [null, 'no answer within 10 s'],
      [null, 'no answer within 10 s'],
      [null, 'no answer within 10 s'],
    ]);
    await t.clock.advance(3_600_000);
    expect(t.receiver.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After asks on a 429 when that is longer than the schedule', async () => {
    const t = await notifyingGateway();
    t.receiver.failNext(1, { status: 429, headers: { 'retry-after': '120' } });
    await openClaim(t);
    await t.receiver.waitFor(1);
    const id = t.receiver.requests[0]!.headers['webhook-id'] as string;
    const first = await attempted(t, id, 1);
    expect(first.attempts[0].statusCode).toBe(429);
    await t.clock.advance(119_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(t.receiver.requests).toHaveLength(1);
    await t.clock.advance(1_000);
    await turnUntil(t, () => t.receiver.requests.length === 2);
  });

  it('reads Retry-After as an HTTP date on a 503', async () => {
    const t = await notifyingGateway();
    t.receiver.failNext(1, { status: 503, headers: { 'retry-after': new Date(t.clock.now() + 180_000).toUTCString() } });
    await openClaim(t);
    await t.receiver.waitFor(1);
    const row = await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.attemptCount === 1));
    const wait = Date.parse(row.nextAttemptAt) - t.clock.now();
    expect(wait).toBeGreaterThan(175_000); // not the schedule's 5 s
    expect(wait).toBeLessThanOrEqual(180_000);
  });

  it('retries a refused connection and records the error', async () => {
    const t = await notifyingGateway();
    await t.receiver.close();
    await openClaim(t);
    const row = await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.attemptCount === 1));
    expect(row.status).toBe('PENDING');
    expect(row.attempts[0].statusCode).toBeNull();
    expect(row.attempts[0].error).toMatch(/ECONNREFUSED|fetch failed/u);
  });

  it('redelivers on request with the same webhook-id and uniqueMessageId, keeping the earlier attempts', async () => {
    const t = await notifyingGateway();
    await openClaim(t);
    await t.receiver.waitFor(1);
    const id = t.receiver.requests[0]!.headers['webhook-id'] as string;
    await turnUntil(t, async () => (await listNotifications(t, { status: ['DELIVERED'] })).length === 1);
    const res = await t.gql('mutation ($id: ID!) { redeliverNotification(id: $id) { id status } }', { id }, { token: t.adminToken });
    expect(res.data.redeliverNotification).toEqual({ id, status: 'PENDING' });
    await t.receiver.waitFor(2);
    expect(t.receiver.requests[1]!.headers['webhook-id']).toBe(id);
    expect(t.receiver.requests[1]!.body.uniqueMessageId).toBe(id);
    const again = await attempted(t, id, 2);
    expect(again.attempts.map((a: any) => a.attempt)).toEqual([1, 2]);
    await turnUntil(t, async () => (await listNotifications(t, { status: ['DELIVERED'] })).length === 1);
    const unknown = await t.gql('mutation { redeliverNotification(id: "msg_nope") { id } }', {}, { token: t.adminToken });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('gives back the lease of a delivery still in flight when it stops, so the next start sends it at once', async () => {
    const file = `file:${join(tempDir(), 'stop.db')}`;
    const t = await notifyingGateway({ DATABASE_URL: file });
    t.receiver.hang(true);
    await openClaim(t);
    await t.receiver.waitFor(1);
    await t.gateway.dispose(); // waits a moment for the answer, then aborts and releases
    const next = await testGateway({ clock: createManualClock(t.clock.now()), env: { DATABASE_URL: file, MERCHANT_ENDPOINT: t.receiver.url, MERCHANT_SIGNING_KEY: SIGNING_KEY } });
    t.receiver.hang(false);
    await t.receiver.waitFor(2); // no lease to wait for
    expect(t.receiver.requests[1]!.headers['webhook-id']).toBe(t.receiver.requests[0]!.headers['webhook-id']);
    const row = await turnUntil(next, async () => (await listNotifications(next, { status: ['DELIVERED'] }))[0]);
    expect(row.attempts).toHaveLength(1); // the interrupted POST is not counted as the merchant's failure
  });

  it('leaves notifications PENDING with no attempt while MERCHANT_ENDPOINT is unset', async () => {
    const t = await testGateway();
    await openClaim(t);
    await t.clock.advance(3_600_000);
    const [row] = await listNotifications(t);
    expect(row).toMatchObject({ status: 'PENDING', attemptCount: 0, attempts: [] });
  });

  it('is staff only', async () => {
    const t = await testGateway();
    const res = await t.gql('{ notifications { totalCount } }');
    expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });
});
