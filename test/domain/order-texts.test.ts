/** The texts of an order (docs/ordering.md): holdUntilText, secondsLeft, and message and nextAction per status. */
import { describe, expect, it } from 'vitest';
import { holdUntilText, orderTexts } from '../../src/orders/order-texts.ts';
import { canAdvance, canCancel, HOLD_EXPIRED_REASON, ORDER_STATUSES, PAY_LABEL, secondsLeft, type Order, type OrderStatus } from '../../src/orders/order.ts';

const NOW = Date.UTC(2026, 10, 22, 15, 0, 0);

function order(status: OrderStatus, extra: Partial<Order> = {}): Order {
  return {
    orderNumber: '1001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    choice: { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' },
    status,
    createdAt: NOW,
    holdUntil: NOW + 300_000,
    paidAt: null,
    paymentMethod: null,
    cancelledAt: null,
    cancelReason: null,
    readyAt: null,
    collectedAt: null,
    collectedBy: null,
    version: 1,
    updatedAt: NOW,
    ...extra,
  };
}

describe('holdUntilText (docs/ordering.md#hold-deadline-text)', () => {
  it('shows the deadline in New York time like "10:05 AM ET" when it is today there', () => {
    expect(holdUntilText(NOW + 300_000, NOW)).toBe('10:05 AM ET');
  });

  it('shows PM times', () => {
    expect(holdUntilText(Date.UTC(2026, 10, 22, 20, 5), Date.UTC(2026, 10, 22, 20, 0))).toBe('3:05 PM ET');
  });

  it('uses New York daylight time in summer', () => {
    // 2026-07-01 14:05 UTC is 10:05 AM EDT (UTC-4).
    expect(holdUntilText(Date.UTC(2026, 6, 1, 14, 5), Date.UTC(2026, 6, 1, 14, 0))).toBe('10:05 AM ET');
  });

  it('adds the date when the deadline is not today in New York', () => {
    // 11:58 PM on Sunday 22 Nov in New York; the deadline is 12:03 AM on Monday 23 Nov.
    const now = Date.UTC(2026, 10, 23, 4, 58);
    expect(holdUntilText(now + 300_000, now)).toBe('Mon, Nov 23, 12:03 AM ET');
  });

  it('compares days in New York, not in UTC', () => {
    // The UTC date changes (23:58 → 00:03) but in New York it is 6:58 PM → 7:03 PM on the same day.
    const now = Date.UTC(2026, 10, 22, 23, 58);
    expect(holdUntilText(now + 300_000, now)).toBe('7:03 PM ET');
  });

  it('gives each minute its own text when asked again and again, one minute after another and back', () => {
    // The texts are remembered per minute (order-texts.ts): a remembered one must never answer for another minute.
    const base = Date.UTC(2026, 10, 22, 15, 4, 59, 999); // 10:04:59.999 AM in New York
    const asked = [base, base + 1, base + 59_999, base + 60_001, base, base + 86_400_000];
    expect(asked.map((deadline) => holdUntilText(deadline, base))).toEqual([
      '10:04 AM ET',
      '10:05 AM ET',
      '10:05 AM ET',
      '10:06 AM ET',
      '10:04 AM ET',
      'Mon, Nov 23, 10:04 AM ET',
    ]);
  });
});

describe('secondsLeft (docs/ordering.md#seconds-left)', () => {
  it('counts whole seconds, rounded down', () => {
    expect(secondsLeft(NOW + 300_000, NOW)).toBe(300);
    expect(secondsLeft(NOW + 300_000, NOW + 1)).toBe(299);
    expect(secondsLeft(NOW + 300_000, NOW + 299_001)).toBe(0);
    expect(secondsLeft(NOW + 300_000, NOW + 299_000)).toBe(1);
  });

  it('is never negative', () => {
    expect(secondsLeft(NOW, NOW + 5_000)).toBe(0);
  });
});

describe('message and nextAction for every status (document 1 §1 rule 3)', () => {
  it('has a status list of exactly the six documented statuses', () => {
    expect([...ORDER_STATUSES]).toEqual(['awaiting payment', 'received', 'in progress', 'ready', 'collected', 'cancelled']);
  });

  it('gives each status its own non-empty message and nextAction naming the order', () => {
    const seen = new Set<string>();
    for (const status of ORDER_STATUSES) {
      const texts = orderTexts(order(status), NOW);
      expect(texts.message.trim().length, status).toBeGreaterThan(0);
      expect(texts.nextAction.trim().length, status).toBeGreaterThan(0);
      expect(texts.message, status).toContain('1001');
      seen.add(texts.message);
      seen.add(texts.nextAction);
    }
    expect(seen.size).toBe(ORDER_STATUSES.length * 2);
  });

  it('awaiting payment: tells the deadline, offers both ways to pay and does not choose', () => {
    const { message, nextAction } = orderTexts(order('awaiting payment'), NOW);
    expect(message).toContain('10:05 AM ET');
    expect(message).toContain('$1.00');
    expect(message).toMatch(/refunded/u);
    expect(nextAction).toContain('10:05 AM ET');
    expect(nextAction).toContain('payUrl');
    expect(nextAction).toContain('vendor_card');
    expect(nextAction).toMatch(/Do not choose for them/u);
  });

  it('awaiting payment: puts the date in the texts when the deadline is tomorrow in New York', () => {
    const now = Date.UTC(2026, 10, 23, 4, 58);
    const { message } = orderTexts(order('awaiting payment', { holdUntil: now + 300_000 }), now);
    expect(message).toContain('Mon, Nov 23, 12:03 AM ET');
  });

  it('received: says it is paid and not to pay again', () => {
    const { message, nextAction } = orderTexts(order('received'), NOW);
    expect(message).toMatch(/paid/u);
    expect(nextAction).toMatch(/do not pay again/iu);
  });

  it('in progress: says it is being embroidered', () => {
    expect(orderTexts(order('in progress'), NOW).message).toMatch(/embroidered now/u);
  });

  it('ready: sends the user to the pickup station with first and last name', () => {
    const { message, nextAction } = orderTexts(order('ready'), NOW);
    expect(message).toMatch(/pickup station/u);
    expect(nextAction).toMatch(/first and last name/u);
  });

  it('collected: says nothing more is to be done', () => {
    const { message, nextAction } = orderTexts(order('collected'), NOW);
    expect(message).toMatch(/collected/u);
    expect(nextAction).toBe('Nothing more to do for this order.');
  });

  it("awaiting payment: tells every door how to pass the payToken, by the names the doors really take", () => {
    const { nextAction } = orderTexts(order('awaiting payment'), NOW);
    expect(nextAction).toMatch(/payToken \(the field t of the REST pay body and of GraphQL payOrder's input; the argument payToken of MCP pay_order\)\.$/u);
  });

  it('cancelled for non-payment: gives the 5-minute reason and says the email may order again', () => {
    const { message, nextAction } = orderTexts(order('cancelled', { cancelReason: HOLD_EXPIRED_REASON }), NOW);
    expect(message).toBe('Order 1001 was cancelled because it was not paid within 5 minutes.');
    expect(nextAction).toMatch(/new order with the same email/u);
  });

  it("cancelled by staff: never relays staff's reason (a staff-only field), and says when the payment is refunded", () => {
    const unpaid = orderTexts(order('cancelled', { cancelReason: 'stolen card', paidAt: null, paymentMethod: null }), NOW);
    expect(unpaid.message).toBe('Order 1001 was cancelled by the event staff.');
    expect(JSON.stringify(unpaid)).not.toMatch(/stolen/u);
    for (const paymentMethod of ['card', 'wallet'] as const) {
      const paid = orderTexts(order('cancelled', { cancelReason: 'stolen card', paidAt: NOW, paymentMethod }), NOW);
      expect(paid.message).toBe('Order 1001 was cancelled by the event staff. The $1.00 payment is refunded.');
    }
    const demo = orderTexts(order('cancelled', { cancelReason: 'thread ran out', paidAt: NOW, paymentMethod: 'vendor_card' }), NOW);
    expect(demo.message).toBe('Order 1001 was cancelled by the event staff.');
  });
});

describe('the order state machine (docs/ordering.md#moving-an-order-forward)', () => {
  it('moves forward through received → in progress → ready → collected, skipping allowed, never back', () => {
    expect(canAdvance('received', 'in progress')).toBe(true);
    expect(canAdvance('received', 'ready')).toBe(true);
    expect(canAdvance('in progress', 'collected')).toBe(true);
    expect(canAdvance('ready', 'in progress')).toBe(false);
    expect(canAdvance('received', 'received')).toBe(false);
    expect(canAdvance('awaiting payment', 'received')).toBe(false);
    expect(canAdvance('cancelled', 'received')).toBe(false);
  });

  it('lets staff cancel anything not collected or already cancelled', () => {
    expect(canCancel('awaiting payment')).toBe(true);
    expect(canCancel('ready')).toBe(true);
    expect(canCancel('collected')).toBe(false);
    expect(canCancel('cancelled')).toBe(false);
  });

  it('has the exact documented constants', () => {
    expect(HOLD_EXPIRED_REASON).toBe('not paid within 5 minutes');
    expect(PAY_LABEL).toBe('Pay $1.00 - all payments will be refunded');
  });
});
