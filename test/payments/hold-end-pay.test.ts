/**
 * A payment at the end of the hold (docs/ordering.md#a-payment-at-the-end-of-the-hold): what counts is when the
 * payment started. Before, an attendee who paid at 4:59 and whose processor answered after 5:00 (or whose retry of
 * an unknown outcome came after it) lost the order: the sweep cancelled it under the payment in flight, and the
 * charge was refunded. Runs on SQLite and, in the postgres project, on PostgreSQL with Redis.
 */
import { describe, expect, it } from 'vitest';
import * as holds from '../../src/orders/hold-repository.ts';
import { PAYMENT_SETTLE_MS } from '../../src/orders/order.ts';
import { STALE_PENDING_MS } from '../../src/payments/payment-flow-service.ts';
import { PAYMENTS_POLL_MS } from '../../src/payments/reconciliation-job.ts';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';
import { card, CARDS, paymentsGateway, sandboxCharges } from './support.ts';

const HOLD_MS = 5 * 60_000;

async function heldOrderWithCard(t: TestGateway, number: string) {
  const { orderNumber, payToken } = await t.createOrder();
  const res = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(number), cvc: '123' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { orderNumber, payToken, token: res.body.token as string };
}

const pay = (t: TestGateway, orderNumber: string, payToken: string, token: string) =>
  t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token });

const statusOf = async (t: TestGateway, orderNumber: string, payToken: string) =>
  (await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status as string;

describe('a card payment at the end of the hold', () => {
  it('started at 4:59 with an unknown outcome, retried at 5:10: the order is paid with the one charge, nothing refunded', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken, token } = await heldOrderWithCard(t, CARDS.timeoutAfterCharge);
    await t.clock.advance(HOLD_MS - 1_000);
    expect((await pay(t, orderNumber, payToken, token)).body.code).toBe('payment_unknown');
    await t.clock.advance(11_000); // the hold has ended; the payment started before it
    const retry = await pay(t, orderNumber, payToken, token);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ status: 'received', alreadyPaid: false });
    await t.clock.advance(PAYMENTS_POLL_MS * 2);
    const charges = await sandboxCharges(t);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.refunded_amount).toBe(0);
    expect(await statusOf(t, orderNumber, payToken)).toBe('received');
  });

  it('the hold sweep leaves the order to its payment in flight for a minute from its start, then cancels it; the late charge is refunded', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken, token } = await heldOrderWithCard(t, CARDS.timeoutAfterCharge);
    await t.clock.advance(HOLD_MS - 1_000);
    expect((await pay(t, orderNumber, payToken, token)).body.code).toBe('payment_unknown');
    await t.clock.advance(2_000); // 5:01: past holdUntil, 2 s into the payment's minute
    const settling = (await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body;
    expect(settling).toMatchObject({ status: 'awaiting payment', secondsLeft: 0 });
    // What an agent relays says so; it does not ask to pay again by a deadline already past.
    expect(settling.message).toContain('still being processed');
    expect(settling.nextAction).toContain('Do not pay again');
    // Another attendee may not take the email while a payment may still pay the order.
    const again = await t.rest('POST', '/api/orders', VALID_ORDER);
    expect(again.body.code).toBe('duplicate');
    // Nor may an agent be asked to confirm such an order (the MCP door's check before it asks, mcp/ordering-tools.ts).
    await expect(t.gateway.services.orders.checkCreate(VALID_ORDER)).rejects.toMatchObject({ code: 'duplicate' });
    await t.clock.advance(PAYMENT_SETTLE_MS); // the minute is over, with no retry: the sweep's timer ends the order
    const ended = await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`);
    expect(ended.body).toMatchObject({ status: 'cancelled', reason: 'not paid within 5 minutes' });
    await expect(t.gateway.services.orders.checkCreate(VALID_ORDER)).resolves.toBeUndefined();
    await t.clock.advance(PAYMENTS_POLL_MS);
    const [charge] = await sandboxCharges(t);
    expect(charge!.refunded_amount).toBe(100);
  });

  it('a payment that started early leaves the hold to end on time', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken, token } = await heldOrderWithCard(t, CARDS.timeoutAfterCharge);
    expect((await pay(t, orderNumber, payToken, token)).body.code).toBe('payment_unknown');
    await t.clock.advance(HOLD_MS);
    expect(await statusOf(t, orderNumber, payToken)).toBe('cancelled');
  });

  it('in the rows: no payment starts once the hold has ended; the timer waits for the later end; a payment that took nothing gives the hold its own end back', async () => {
    const t = await paymentsGateway();
    const { db } = t.gateway.database;
    const { orderNumber } = await t.createOrder();
    const n = Number(orderNumber);
    const holdUntil = t.clock.now() + HOLD_MS;
    expect(await holds.startPaying(db, n, holdUntil)).toBe(false);
    expect(await holds.nextHoldEnd(db)).toBe(holdUntil);
    expect(await holds.startPaying(db, n, holdUntil - 10_000)).toBe(true);
    expect(await holds.nextHoldEnd(db)).toBe(holdUntil - 10_000 + PAYMENT_SETTLE_MS);
    expect(await holds.expireHolds(db, holdUntil, 'test', n)).toEqual([]);
    await holds.stopPaying(db, n);
    expect(await holds.nextHoldEnd(db)).toBe(holdUntil);
    expect(await holds.expireHolds(db, holdUntil, 'test', n)).toHaveLength(1);
  });

  it('the order waits no longer than the payments area waits for a caller to come back', () => {
    expect(PAYMENT_SETTLE_MS).toBe(STALE_PENDING_MS);
  });
});
