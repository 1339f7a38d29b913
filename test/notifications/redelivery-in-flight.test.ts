/**
 * A staff redelivery asked for while an attempt is still in flight (issue 14, defect 6;
 * docs/notifications.md#redelivery-during-an-attempt): the receiver holds the first POST open, staff redeliver,
 * then the held POST is answered (or times out). Whatever that answer, it is recorded as an attempt and the
 * redelivery still happens: a further attempt follows at once, with the same webhook-id.
 */
import { describe, expect, it } from 'vitest';
import { attempted, listNotifications, notifyingGateway, openClaim, turnUntil, type NotifyingGateway } from './helpers.ts';

const REDELIVER = 'mutation ($id: ID!) { redeliverNotification(id: $id) { id status } }';

/** Opens a claim and waits until its first POST is held open by the receiver; returns the notification id. */
async function heldFirstAttempt(t: NotifyingGateway): Promise<string> {
  t.receiver.hang(true);
  await openClaim(t);
  const [held] = await t.receiver.waitFor(1);
  return held!.headers['webhook-id'] as string;
}

/**
 * Waits (bounded, the clock not moved) for a second POST; asserts it came, naming the row's state when not, so a
 * lost redelivery fails with what happened instead (e.g. DELIVERED after one attempt, or FAILED).
 */
async function expectFurtherAttempt(t: NotifyingGateway, id: string): Promise<void> {
  await turnUntil(t, () => t.receiver.requests.length >= 2).catch(() => null);
  const row = (await listNotifications(t)).find((n) => n.id === id);
  const state = `${row?.status} after ${row?.attemptCount} attempt(s), next attempt ${row?.nextAttemptAt ?? 'none'}`;
  expect(t.receiver.requests.map((r) => r.headers['webhook-id']), `no attempt followed the redelivery: ${state}`).toEqual([id, id]);
}

async function redeliver(t: NotifyingGateway, id: string): Promise<void> {
  const res = await t.gql(REDELIVER, { id }, { token: t.adminToken });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.redeliverNotification).toEqual({ id, status: 'PENDING' });
}

describe('a redelivery asked for while an attempt is in flight', () => {
  it('is honoured when the attempt in flight then succeeds', async () => {
    const t = await notifyingGateway();
    const id = await heldFirstAttempt(t);
    await redeliver(t, id);
    t.receiver.hang(false);
    t.receiver.release(); // the held POST is answered 200 now, after the redelivery was asked for

    // The clock does not move: the redelivery is due at once, not on the schedule.
    await expectFurtherAttempt(t, id);
    const done = await attempted(t, id, 2);
    await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.id === id && n.status === 'DELIVERED'));
    expect(done.attempts.map((a: any) => [a.attempt, a.statusCode])).toEqual([
      [1, 200],
      [2, 200],
    ]);
  });

  it('is honoured when the attempt in flight then fails on the last step of the schedule', async () => {
    const t = await notifyingGateway({ NOTIFY_RETRY_SCHEDULE: '0' }); // one attempt per round: a failure would be FAILED
    const id = await heldFirstAttempt(t);
    await redeliver(t, id);
    t.receiver.hang(false);
    await t.clock.advance(10_000); // the held POST times out: a failed attempt, recorded after the redelivery

    await expectFurtherAttempt(t, id);
    const done = await turnUntil(t, async () => (await listNotifications(t)).find((n) => n.id === id && n.attemptCount === 2 && n.status === 'DELIVERED'));
    expect(done.attempts.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, null, 'no answer within 10 s'],
      [2, 200, null],
    ]);
    t.receiver.release();
  });
});
