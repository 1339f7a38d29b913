/**
 * docs/platform.md#sandbox-addresses: a test email forces the decision, whatever the rules say. The email is taken from
 * `accountOwner.email`, `newEmail.email` or the first `accountData.emailsInAccount[].email`, in that order.
 */
import type { AccountRequest } from '../account-requests.ts';
import { isRecord } from '../../kernel/json-shape.ts';
import { sandboxDecisionOf } from '../../kernel/vendor-decisions.ts';
import type { Decision } from './types.ts';

export function sandboxEmail(body: AccountRequest['body']): string | null {
  const emailOf = (value: unknown) => (isRecord(value) && typeof value.email === 'string' ? value.email : null);
  const accountData = isRecord(body.accountData) ? body.accountData : {};
  const first = Array.isArray(accountData.emailsInAccount) ? accountData.emailsInAccount[0] : undefined;
  return emailOf(body.accountOwner) ?? emailOf(body.newEmail) ?? emailOf(first);
}

/** The forced decision, or null when the request carries no sandbox address. */
export function sandboxDecision(body: AccountRequest['body']): Decision | null {
  const email = sandboxEmail(body);
  const sandbox = email ? sandboxDecisionOf(email) : undefined;
  if (!sandbox) return null;
  const { address, decision: forced } = sandbox;
  return {
    vendorDecision: forced,
    reasonCodes: ['SANDBOX_EMAIL'],
    recommendations: forced === 'VERIFICATION_REQUIRED' ? ['SMS_VERIFICATION', 'EMAIL_VERIFICATION'] : [],
    firedRules: [
      { id: 'sandbox-email', reasonCode: 'SANDBOX_EMAIL', outcome: 'SANDBOX', description: 'A sandbox address forces the decision.', explanation: `${address} forces ${forced}.` },
    ],
  };
}
