/**
 * Rules about how the account behaves: how often it (or its IP) asks, and where from. Counts come from the stored
 * requests in a window that ends at the request's eventTime, never at the wall clock, so the same request against
 * the same history always gives the same answer.
 */
import type { Rule } from './types.ts';

export const VELOCITY_WINDOW_MS = 10 * 60_000;
/** The request after this many earlier ones in the window fires the rule. */
export const ACCOUNT_ATTEMPT_LIMIT = 5;
export const IP_ATTEMPT_LIMIT = 10;

export const accountVelocity: Rule = {
  id: 'account-velocity',
  description: `More than ${ACCOUNT_ATTEMPT_LIMIT} requests for one account within ${VELOCITY_WINDOW_MS / 60_000} minutes.`,
  reasonCode: 'ACCOUNT_VELOCITY',
  outcome: 'DECLINE',
  recommendations: [],
  evaluate({ history }) {
    return history.accountAttempts >= ACCOUNT_ATTEMPT_LIMIT
      ? `${history.accountAttempts} earlier requests for this account in the ${VELOCITY_WINDOW_MS / 60_000} minutes before this one.`
      : null;
  },
};

export const ipVelocity: Rule = {
  id: 'ip-velocity',
  description: `More than ${IP_ATTEMPT_LIMIT} requests from one customer IP within ${VELOCITY_WINDOW_MS / 60_000} minutes.`,
  reasonCode: 'IP_VELOCITY',
  outcome: 'DECLINE',
  recommendations: [],
  evaluate({ facts, history }) {
    return facts.customerIp && history.ipAttempts >= IP_ATTEMPT_LIMIT
      ? `${history.ipAttempts} earlier requests from ${facts.customerIp} in the ${VELOCITY_WINDOW_MS / 60_000} minutes before this one.`
      : null;
  },
};

export const newPaymentFromNewIp: Rule = {
  id: 'new-payment-new-address',
  description: 'A new payment method and a new address, sent from an IP address this known account never used.',
  reasonCode: 'NEW_PAYMENT_METHOD_NEW_ADDRESS',
  outcome: 'VERIFICATION_REQUIRED',
  recommendations: ['SMS_VERIFICATION', 'PUSH_VERIFICATION', 'NEW_DEVICE_ALERT'],
  evaluate({ facts, history }) {
    // An account with no history has no usual IP to differ from; the rule is about a known account changing hands.
    if (!facts.newPaymentMethod || !facts.newAddress || !facts.customerIp || !history.accountSeen || history.ipUsedByAccount) return null;
    return `New payment method and address from ${facts.customerIp}, an IP none of the account's earlier requests came from.`;
  },
};
