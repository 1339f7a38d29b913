/** The staff `notificationEvents` subscription (docs/graphql.md#root-fields): one event per delivery attempt, live, over WebSocket. */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';
import { startReceiver } from '../support/receiver.ts';
import { openClaim, SIGNING_KEY, turnUntil } from './helpers.ts';

describe('notificationEvents', () => {
  it('streams each attempt to staff as it is recorded, and refuses anyone else', async () => {
    const receiver = await startReceiver();
    const t = await liveServer({ clock: createManualClock(Date.now()), env: { MERCHANT_ENDPOINT: receiver.url, MERCHANT_SIGNING_KEY: SIGNING_KEY, NOTIFY_RETRY_SCHEDULE: '0,5s' } });
    const anonymous = subscribe(t.client(), 'subscription { notificationEvents { id } }');
    expect(await anonymous.failed).toMatchObject([{ extensions: { code: 'UNAUTHORIZED' } }]);

    const events = subscribe(t.client(`Bearer ${t.adminToken}`), 'subscription { notificationEvents { id status attempts { attempt statusCode } } }');
    await subscriptionsOpen(t.server.url, 'notificationEvents', 1);
    receiver.failNext(1, { status: 503 });
    await openClaim(t);
    const first = (await events.next()).notificationEvents;
    expect(first).toMatchObject({ status: 'PENDING', attempts: [{ attempt: 1, statusCode: 503 }] });
    await t.clock.advance(5_000);
    await turnUntil(t, () => receiver.requests.length === 2);
    const second = (await events.next()).notificationEvents;
    expect(second).toMatchObject({ id: first.id, status: 'DELIVERED', attempts: [{ attempt: 1 }, { attempt: 2, statusCode: 200 }] });
  });
});
