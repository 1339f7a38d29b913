/**
 * What an agent relays (`message`) and does next (`nextAction`) for each status (document 1 §1 rules 3-4).
 * Plain sentences, specific to the status, written to be read aloud to the person who ordered.
 */
import { HOLD_EXPIRED_REASON, type Order } from './order.ts';

const NY_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});
const NY_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
});
const NY_DAY_KEY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * `format` remembered for the last minute it was asked about. Every text here depends on the minute alone (New York's
 * offsets are whole hours), and Intl's formatting was about 2% of an order's work (a CPU profile of bench/orders.ts):
 * one view formats the same deadline twice, and the orders of one minute share their day.
 */
function perMinute(format: (at: number) => string): (at: number) => string {
  let minute = Number.NaN;
  let text = '';
  return (at) => {
    const asked = Math.floor(at / 60_000);
    if (asked !== minute) {
      minute = asked;
      text = format(at);
    }
    return text;
  };
}

// Newer ICU data puts a narrow no-break space before AM/PM; agents and tests expect a plain one.
const timeOf = perMinute((at) => `${NY_TIME.format(at).replace(/[\u202f\u00a0]/gu, ' ')} ET`);
const dayOfDeadline = perMinute((at) => NY_DAY_KEY.format(at));
const dayOfNow = perMinute((at) => NY_DAY_KEY.format(at));

/**
 * How long a hold lasts, in words: "5 minutes" (HOLD_SECONDS' default), "10 minutes", "90 seconds". What the texts
 * say follows the configured hold; document 1's `reason` string stays its own words (HOLD_EXPIRED_REASON).
 */
export function holdPhrase(seconds: number): string {
  if (seconds >= 60 && seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** `3:05 PM ET`, with the date in front when the deadline is not today in New York (docs/ordering.md#hold-deadline-text). */
export function holdUntilText(holdUntil: number, now: number): string {
  const time = timeOf(holdUntil);
  if (dayOfDeadline(holdUntil) === dayOfNow(now)) return time;
  return `${NY_DATE.format(holdUntil)}, ${time}`;
}

export interface OrderTexts {
  message: string;
  nextAction: string;
}

export function orderTexts(order: Order, now: number): OrderTexts {
  const n = order.orderNumber;
  switch (order.status) {
    case 'awaiting payment': {
      const until = holdUntilText(order.holdUntil, now);
      // Held past its end only while a payment started in time settles (docs/ordering.md#a-payment-at-the-end-of-the-hold).
      if (order.holdUntil <= now) {
        return {
          message:
            `Order ${n}'s reservation ended at ${until} while a payment started before then was still being processed. ` +
            `Within a minute the order is either paid, or cancelled with any charge refunded.`,
          nextAction:
            `Tell the user the payment is being processed. Do not pay again or another way; check the status again ` +
            `in a few seconds with the payToken.`,
        };
      }
      return {
        message:
          `Order ${n} is reserved until ${until}. It is not paid yet; if it is not paid by then it will be cancelled. ` +
          `Pay with your own card or wallet on the payment page ($1.00, refunded), or with the demo card (nothing is charged).`,
        nextAction:
          `Tell the user the deadline (${until}) and ask how they want to pay: their own card or wallet on payUrl, ` +
          `or the demo card (method vendor_card). Do not choose for them. Then pay with the payToken ` +
          `(the field t of the REST pay body and of GraphQL payOrder's input; the argument payToken of MCP pay_order).`,
      };
    }
    case 'received':
      return {
        message: `Order ${n} is paid and received. The sleeve goes into the embroidery queue next.`,
        nextAction:
          `Tell the user the order is paid and will be embroidered. Check the status later with the payToken; ` +
          `do not pay again.`,
      };
    case 'in progress':
      return {
        message: `Order ${n} is being embroidered now.`,
        nextAction: 'Tell the user the sleeve is being made. Check the status again in a few minutes.',
      };
    case 'ready':
      return {
        message:
          `Order ${n} is ready. Collect it at the order pickup station and give the first and last name on the order.`,
        nextAction:
          'Tell the user to go to the pickup station with the order number and the first and last name on the order.',
      };
    case 'collected':
      return {
        message: `Order ${n} has been collected. Enjoy the sleeve!`,
        nextAction: 'Nothing more to do for this order.',
      };
    case 'cancelled': {
      if (order.cancelReason === HOLD_EXPIRED_REASON) {
        return {
          // The order's own hold, as it was when the order was made.
          message: `Order ${n} was cancelled because it was not paid within ${holdPhrase(Math.round((order.holdUntil - order.createdAt) / 1000))}.`,
          nextAction: 'Tell the user the order is cancelled. They may place a new order with the same email if they still want a sleeve.',
        };
      }
      // Staff's reason is a staff-only field (it may read "stolen card"); the holder hears that staff cancelled it,
      // and, when their own card or wallet paid, that the $1.00 is refunded (docs/ordering.md#moving-an-order-forward).
      const refunded = order.paidAt !== null && order.paymentMethod !== 'vendor_card';
      return {
        message: `Order ${n} was cancelled by the event staff.${refunded ? ' The $1.00 payment is refunded.' : ''}`,
        nextAction:
          'Tell the user the order is cancelled by the staff; staff at the pickup station can say why. They may place a new order with the same email.',
      };
    }
  }
}
