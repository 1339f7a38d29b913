/**
 * docs/platform.md#sandbox-addresses: the test emails that force a decision, for the fraud decisions
 * (src/risk/rules/sandbox.ts) and the payments (src/payments/payment-request.ts) alike. A Map, not an object
 * literal: an email is anyone's text, and `"__proto__"` or `"constructor"` looked up in an object finds what its
 * prototype has (a 500 on both paths before, found by test/edge/generated-bad-input.test.ts).
 */
export type SandboxDecision = 'APPROVE' | 'DECLINE' | 'NOT_REVIEWED' | 'VERIFICATION_REQUIRED';

const SANDBOX = new Map<string, SandboxDecision>([
  ['approve@vendor.test', 'APPROVE'],
  ['decline@vendor.test', 'DECLINE'],
  ['verify@vendor.test', 'VERIFICATION_REQUIRED'],
  ['review@vendor.test', 'NOT_REVIEWED'],
]);

/** The decision `email` forces (trimmed, in any case), or undefined for every other address. */
export function sandboxDecisionOf(email: string): SandboxDecision | undefined {
  return SANDBOX.get(email.trim().toLowerCase());
}
