/**
 * A PUBLISH that Redis refuses while the connection stays up (src/events/event-bus.ts, recoverLostPublishes): the
 * event is lost for every instance, as when the publishing connection breaks, and every instance must read again
 * what its streams show once Redis takes publishes again. Only a reconnection of the publishing connection used to
 * announce the loss, and a refusal breaks nothing: the displays went on showing the state from before the change
 * until some later break. A refusal with the connection up is what Redis answers a user whom an ACL does not allow
 * PUBLISH (here), and to every command while a script runs past its time limit (BUSY).
 * A PUBLISH ioredis drops unsettled is lost the same way: written during the handshake of a connection that breaks
 * before it is ready (Redis takes PUBLISH while loading), it was neither answered nor failed, so never announced.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBusHandle } from '../../src/events/event-bus.ts';
import type { OrderChangedEvent } from '../../src/events/topics.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { until } from '../support/order-streams.ts';

const REDIS = process.env.TEST_REDIS_URL;
const handles: EventBusHandle[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ready(handle: EventBusHandle): Promise<void> {
  await expect.poll(() => handle.check().then(() => true, () => false), { timeout: 5_000 }).toBe(true);
}

const changed = (orderNumber: string) => ({ orderNumber }) as OrderChangedEvent;

/** Instance A's bus on `aUrl`, B's straight on Redis, both ready, and when each resumed and how far back. */
async function twoInstances(aUrl: string) {
  const channelPrefix = `lost-${randomUUID()}:`;
  const a = createEventBus({ redisUrl: aUrl, channelPrefix });
  const b = createEventBus({ redisUrl: REDIS!, channelPrefix });
  handles.push(a, b);
  await Promise.all([ready(a), ready(b)]);
  const resumes = { a: [] as number[], b: [] as number[] };
  a.bus.onResume((awayMs) => resumes.a.push(awayMs));
  b.bus.onResume((awayMs) => resumes.b.push(awayMs));
  return { a, b, resumes };
}

describe.skipIf(!REDIS)(`a PUBLISH refused with the connection up${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  it('makes every instance resume once Redis takes publishes again, reaching back to the refused one', async () => {
    // Instance A connects as a user of its own, whose right to PUBLISH is taken away and given back; B as usual.
    const admin = new Redis(REDIS!);
    cleanups.push(() => admin.quit());
    const user = `sleeve-publish-${randomUUID()}`;
    await admin.call('ACL', 'SETUSER', user, 'on', 'nopass', '~*', '&*', '+@all');
    cleanups.push(() => admin.call('ACL', 'DELUSER', user));
    const asUser = new URL(REDIS!);
    asUser.username = user;
    asUser.password = 'any';
    const { a, b, resumes } = await twoInstances(asUser.toString());
    const onB: string[] = [];
    b.bus.listen('orderChanged', (event) => onB.push(event.orderNumber));
    await b.bus.subscribed();

    await admin.call('ACL', 'SETUSER', user, '-publish');
    const refusedAt = Date.now();
    a.bus.publish('orderChanged', changed('1001')); // refused: NOPERM, and the connection stays up
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(onB).toEqual([]);
    expect(resumes).toEqual({ a: [], b: [] }); // nothing can be announced while publishes are refused

    await admin.call('ACL', 'SETUSER', user, '+publish');
    const restoredAt = Date.now();
    await expect.poll(() => [resumes.a.length, resumes.b.length], { timeout: 10_000 }).toEqual([1, 1]);
    // How far back a stream that replays what changed during the break looks: to the refused publish at least.
    for (const awayMs of [...resumes.a, ...resumes.b]) expect(awayMs).toBeGreaterThanOrEqual(restoredAt - refusedAt);

    // And the next event goes through as usual.
    a.bus.publish('orderChanged', changed('1002'));
    await expect.poll(() => onB).toEqual(['1002']);
  });

  it('makes every instance resume after a PUBLISH written during a handshake that broke, which ioredis settles neither way', async () => {
    const link = await faultyLink(REDIS!);
    const { a, resumes } = await twoInstances(link.url);

    // A's publishing connection breaks and its next one waits in the handshake (its ready check's INFO unanswered);
    // A's subscriber stays up, so no break of its own makes anything resume.
    link.stall(/subscribe/iu);
    await until(() => link.unanswered().some((sent) => /info/iu.test(sent)), 5_000, "A's publisher in its handshake");
    a.bus.publish('orderChanged', changed('1001')); // written into that handshake
    link.restore(); // the stalled connection ends; the next handshake reaches Redis, and drops the PUBLISH
    await expect.poll(() => [resumes.a.length, resumes.b.length], { timeout: 15_000 }).toEqual([1, 1]);
  });
});
