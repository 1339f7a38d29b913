/**
 * Document 3's decision values (docs/platform.md#decisions), shared by the fraud decisions (src/risk) and the
 * payments (src/payments), and the test emails that force one (docs/platform.md#sandbox-addresses). The addresses
 * are kept in a Map, not an object literal: an email is anyone's text, and `"__proto__"` or `"constructor"` looked
 * up in an object finds what its prototype has (a 500 on both paths before, found by
 * test/edge/generated-bad-input.test.ts).
 */
export const VENDOR_DECISIONS = ['APPROVE', 'DECLINE', 'VERIFICATION_REQUIRED', 'NOT_REVIEWED'] as const;
export type VendorDecision = (typeof VENDOR_DECISIONS)[number];

const SANDBOX = new Map<string, VendorDecision>([
  ['approve@vendor.test', 'APPROVE'],
  ['decline@vendor.test', 'DECLINE'],
  ['verify@vendor.test', 'VERIFICATION_REQUIRED'],
  ['review@vendor.test', 'NOT_REVIEWED'],
]);

/** The decision `email` forces (trimmed, in any case) with the address as compared, or undefined for every other. */
export function sandboxDecisionOf(email: string): { address: string; decision: VendorDecision } | undefined {
  const address = email.trim().toLowerCase();
  const decision = SANDBOX.get(address);
  return decision === undefined ? undefined : { address, decision };
}
