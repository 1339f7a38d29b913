/**
 * The rules engine (docs/platform.md#decisions: explainable; the same input gives the same decision). Rules run in the fixed order
 * of RULES; any DECLINE rule declines, otherwise any VERIFICATION_REQUIRED rule asks for verification with the
 * recommendations of the rules that fired, otherwise the request is approved. A sandbox address wins over all.
 */
import type { AccountRequest } from '../account-requests.ts';
import { accountVelocity, ipVelocity, newPaymentFromNewIp } from './behaviour-rules.ts';
import { requestFacts } from './facts.ts';
import { countryMismatch, disposableEmail, unverifiedContact } from './identity-rules.ts';
import { cryptoPayout, newSellerHighValue } from './listing-rules.ts';
import { sandboxDecision } from './sandbox.ts';
import type { Decision, FiredRule, Recommendation, RequestHistory, Rule } from './types.ts';

export const RULES: readonly Rule[] = [
  disposableEmail,
  accountVelocity,
  ipVelocity,
  unverifiedContact,
  newPaymentFromNewIp,
  newSellerHighValue,
  cryptoPayout,
  countryMismatch,
];

export function decide(request: AccountRequest, history: RequestHistory): Decision {
  const forced = sandboxDecision(request.body);
  if (forced) return forced;
  const input = { facts: requestFacts(request), history };
  const fired: Array<{ rule: Rule; explanation: string }> = [];
  for (const rule of RULES) {
    const explanation = rule.evaluate(input);
    if (explanation !== null) fired.push({ rule, explanation });
  }
  const declines = fired.some((f) => f.rule.outcome === 'DECLINE');
  const vendorDecision = declines ? 'DECLINE' : fired.length > 0 ? 'VERIFICATION_REQUIRED' : 'APPROVE';
  const recommendations: Recommendation[] =
    vendorDecision === 'VERIFICATION_REQUIRED' ? [...new Set(fired.flatMap((f) => f.rule.recommendations))] : [];
  return {
    vendorDecision,
    reasonCodes: fired.map((f) => f.rule.reasonCode),
    recommendations,
    firedRules: fired.map(({ rule, explanation }): FiredRule => ({
      id: rule.id,
      reasonCode: rule.reasonCode,
      outcome: rule.outcome,
      description: rule.description,
      explanation,
    })),
  };
}
