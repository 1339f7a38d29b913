/** Shared steps of the notification tests: a gateway that notifies a real receiver, staff calls, clock turns. */
import { expect } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';

export const SIGNING_KEY = 'test-signing-key';

export interface NotifyingGateway extends TestGateway {
  receiver: Receiver;
}

/**
 * A gateway whose MERCHANT_ENDPOINT is a fresh receiver. The manual clock starts at the wall time, so the
 * Standard Webhooks timestamp is within the library's tolerance until a test moves it far.
 */
export async function notifyingGateway(env: Record<string, string> = {}): Promise<NotifyingGateway> {
  const receiver = await startReceiver();
  const t = await testGateway({
    clock: createManualClock(Date.now()),
    env: { MERCHANT_ENDPOINT: receiver.url, MERCHANT_SIGNING_KEY: SIGNING_KEY, NOTIFY_RETRY_SCHEDULE: '0,5s,5m', ...env },
  });
  return { ...t, receiver };
}

/** A date `days` after the gateway's clock, as YYYY-MM-DD. */
export const daysAhead = (t: TestGateway, days: number) => new Date(t.clock.now() + days * 86_400_000).toISOString().slice(0, 10);

export const OPEN_CLAIM = `mutation ($input: OpenClaimInput!) {
  openClaim(input: $input) { claimId orderId status requestedEvidenceTypes missingEvidenceTypes hoursLeftUntilDisputed dueDate }
}`;

export async function openClaim(t: TestGateway, input: Record<string, unknown> = {}) {
  const { orderNumber } = await t.createOrder({ email: `claim${Math.random().toString(36).slice(2)}@example.com` });
  const res = await t.gql(
    OPEN_CLAIM,
    {
      input: {
        orderId: orderNumber,
        claimType: 'CHARGEBACK',
        reasonCode: '13.1',
        reasonCategory: 'SERVICE',
        amount: 45.5,
        currency: 'USD',
        processorName: 'sandbox',
        processorCaseNumber: 'case-1',
        dueDate: daysAhead(t, 10),
        requestedEvidenceTypes: ['PROOF_OF_DELIVERY', 'INVOICE', 'CUSTOMER_CORRESPONDENCE'],
        ...input,
      },
    },
    { token: t.adminToken },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data.openClaim as { claimId: string; orderId: string; status: string; missingEvidenceTypes: string[]; hoursLeftUntilDisputed: number };
}

export const NOTIFICATIONS = `query ($first: Int, $status: [NotificationStatus!], $type: [NotificationType!]) {
  notifications(first: $first, status: $status, type: $type) {
    totalCount
    edges { node { id type path status attemptCount nextAttemptAt lastError body attempts { attempt statusCode error responseExcerpt durationMs } } }
  }
}`;

export async function listNotifications(t: TestGateway, filter: Record<string, unknown> = {}) {
  const res = await t.gql(NOTIFICATIONS, { first: 200, ...filter }, { token: t.adminToken });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return (res.data.notifications.edges as Array<{ node: any }>).map((e) => e.node);
}

/** Fires timers that are due now (also those armed after the last advance) until `check` holds. */
export async function turnUntil<T>(t: TestGateway, check: () => Promise<T> | T, ms = 5_000): Promise<NonNullable<T>> {
  return eventually(async () => {
    await t.clock.advance(0);
    return check();
  }, ms);
}

/**
 * Waits until the notification has `count` attempts recorded; returns it. Checked on the row's own count: the
 * list reads rows, then their attempts, so an attempt committed in between can show before its row's new state.
 */
export async function attempted(t: TestGateway, id: string, count: number) {
  return turnUntil(t, async () => (await listNotifications(t)).find((n) => n.id === id && n.attemptCount >= count));
}
