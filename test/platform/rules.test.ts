/**
 * The rules engine on its own (src/risk/rules): each rule fires and stays silent, the decision follows the
 * strongest outcome, sandbox addresses win, and one input always gives one decision.
 */
import { describe, expect, it } from 'vitest';
import { parseAccountRequest, type RequestKind } from '../../src/risk/account-requests.ts';
import { ACCOUNT_ATTEMPT_LIMIT, IP_ATTEMPT_LIMIT } from '../../src/risk/rules/behaviour-rules.ts';
import { decide, RULES } from '../../src/risk/rules/engine.ts';
import type { RequestHistory } from '../../src/risk/rules/types.ts';
import { EVENT_TIME, itemListing, profileAccess } from './support.ts';

const NO_HISTORY: RequestHistory = { accountAttempts: 0, ipAttempts: 0, accountSeen: false, ipUsedByAccount: false };

function run(kind: RequestKind, body: Record<string, unknown>, history: Partial<RequestHistory> = {}) {
  return decide(parseAccountRequest(kind, body), { ...NO_HISTORY, ...history });
}
const fired = (decision: ReturnType<typeof run>) => decision.firedRules.map((r) => r.id);

const unverified = { sent: true, verified: false };
const newCard = { creditCard: { bin: '424242', lastFourDigits: '4242' } };

describe('rules engine', () => {
  it('approves a request no rule objects to, with nothing fired', () => {
    for (const [kind, body] of [['profile-access', profileAccess()], ['item-listing', itemListing()]] as const) {
      expect(run(kind, body)).toEqual({ vendorDecision: 'APPROVE', reasonCodes: [], recommendations: [], firedRules: [] });
    }
  });

  it('every rule has an id, a description and a reason code, all distinct', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    expect(new Set(RULES.map((r) => r.reasonCode)).size).toBe(RULES.length);
    for (const rule of RULES) expect(rule.description.length).toBeGreaterThan(10);
  });

  describe('unverified-contact', () => {
    it('fires when emails and phones are given and none is verified', () => {
      const d = run('profile-access', profileAccess({ newEmail: { email: 'n@example.com', emailVerification: unverified }, newPhone: { phone: '+15550100', smsVerified: unverified } }));
      expect(d.vendorDecision).toBe('VERIFICATION_REQUIRED');
      expect(d.reasonCodes).toEqual(['UNVERIFIED_EMAIL_AND_PHONE']);
      expect(d.recommendations).toEqual(['EMAIL_VERIFICATION', 'SMS_VERIFICATION']);
      expect(d.firedRules[0]!.explanation).toMatch(/none verified/u);
    });
    it('stays silent when one of them is verified, or none says', () => {
      const verifiedPhone = profileAccess({ newEmail: { email: 'n@example.com', emailVerification: unverified }, newPhone: { phone: '+15550100', smsVerified: { sent: true, verified: true } } });
      expect(fired(run('profile-access', verifiedPhone))).toEqual([]);
      expect(fired(run('profile-access', profileAccess({ newEmail: { email: 'n@example.com' } })))).toEqual([]);
    });
  });

  describe('disposable-email', () => {
    it('declines an address at a disposable domain, wherever it appears', () => {
      expect(run('profile-access', profileAccess({ accountOwner: { email: 'x@Mailinator.com' } })).vendorDecision).toBe('DECLINE');
      const listing = itemListing({ accountData: { emailsInAccount: [{ email: 'x@yopmail.com', emailVerification: { sent: true, verified: true } }] } });
      expect(run('item-listing', listing).reasonCodes).toEqual(['DISPOSABLE_EMAIL_DOMAIN']);
    });
    it('sees through spaces around the address, a trailing dot and a subdomain of the service', () => {
      for (const email of [' y@mailinator.com ', 'y@mailinator.com.', 'y@eu.Mailinator.com', 'y@mailinator.com..']) {
        expect(run('profile-access', profileAccess({ accountOwner: { email } })).reasonCodes, email).toEqual(['DISPOSABLE_EMAIL_DOMAIN']);
      }
    });
    it('stays silent for an ordinary domain, even one that contains a disposable name', () => {
      expect(fired(run('profile-access', profileAccess({ accountOwner: { email: 'x@notmailinator.com.example' } })))).toEqual([]);
      expect(fired(run('profile-access', profileAccess({ accountOwner: { email: 'x@notmailinator.com' } })))).toEqual([]);
    });
  });

  describe('account-velocity and ip-velocity', () => {
    it(`declines after ${ACCOUNT_ATTEMPT_LIMIT} earlier requests of the account in the window, not before`, () => {
      expect(fired(run('profile-access', profileAccess(), { accountAttempts: ACCOUNT_ATTEMPT_LIMIT - 1 }))).toEqual([]);
      const d = run('profile-access', profileAccess(), { accountAttempts: ACCOUNT_ATTEMPT_LIMIT });
      expect(d.vendorDecision).toBe('DECLINE');
      expect(d.reasonCodes).toEqual(['ACCOUNT_VELOCITY']);
    });
    it(`declines after ${IP_ATTEMPT_LIMIT} earlier requests from the IP, not before, and never without an IP`, () => {
      expect(fired(run('item-listing', itemListing(), { ipAttempts: IP_ATTEMPT_LIMIT - 1 }))).toEqual([]);
      expect(run('item-listing', itemListing(), { ipAttempts: IP_ATTEMPT_LIMIT }).reasonCodes).toEqual(['IP_VELOCITY']);
      expect(fired(run('item-listing', itemListing({ connectionInformation: {} }), { ipAttempts: 50 }))).toEqual([]);
    });
  });

  describe('new-payment-new-address', () => {
    const body = profileAccess({ newPaymentMethods: newCard, newAddress: { address1: '1 Main St', city: 'Austin', country: 'US' } });
    it('fires for a known account adding a payment method and an address from an IP it never used', () => {
      const d = run('profile-access', body, { accountSeen: true });
      expect(d.vendorDecision).toBe('VERIFICATION_REQUIRED');
      expect(d.reasonCodes).toEqual(['NEW_PAYMENT_METHOD_NEW_ADDRESS']);
      expect(d.recommendations).toContain('SMS_VERIFICATION');
    });
    it('stays silent from a known IP, for an account never seen, or without the new address', () => {
      expect(fired(run('profile-access', body, { accountSeen: true, ipUsedByAccount: true }))).toEqual([]);
      expect(fired(run('profile-access', body))).toEqual([]);
      expect(fired(run('profile-access', profileAccess({ newPaymentMethods: newCard }), { accountSeen: true }))).toEqual([]);
    });
  });

  describe('new-seller-high-value', () => {
    const seller = (createdMinutesBefore: number) => ({ sellerDetails: { sellerAccountCreationDate: (EVENT_TIME - createdMinutesBefore * 60_000) / 1000 } });
    const listing = (price: number, minutes: number) =>
      itemListing({ listedItems: [{ basicItemData: { name: 'Laptop', price, quantity: 1 }, seller: seller(minutes) }] });
    it('fires for an account minutes old listing an item worth 1000 or more', () => {
      const d = run('item-listing', listing(1000, 5));
      expect(d.reasonCodes).toEqual(['NEW_SELLER_HIGH_VALUE_LISTING']);
      expect(d.firedRules[0]!.explanation).toMatch(/5 minute/u);
    });
    it('stays silent for a cheaper item or an older account', () => {
      expect(fired(run('item-listing', listing(999, 5)))).toEqual([]);
      expect(fired(run('item-listing', listing(5000, 60)))).toEqual([]);
    });
    it('counts price times quantity and reads ISO dates', () => {
      const iso = { sellerDetails: { sellerAccountCreationDate: new Date(EVENT_TIME - 60_000).toISOString() } };
      const body = itemListing({ listedItems: [{ basicItemData: { price: '250', quantity: 4 }, seller: iso }] });
      expect(fired(run('item-listing', body))).toEqual(['new-seller-high-value']);
    });
  });

  describe('crypto-payout', () => {
    it('fires for a beneficiary paid to a crypto wallet, not for a bank account', () => {
      const to = (beneficiary: object) => itemListing({ listedItems: [{ basicItemData: { price: 10, quantity: 1 }, beneficiaries: [beneficiary] }] });
      expect(run('item-listing', to({ cryptoWallet: { cryptoWalletType: 'BTC' } })).reasonCodes).toEqual(['CRYPTO_WALLET_PAYOUT']);
      expect(fired(run('item-listing', to({ bankAccount: { iban: 'x' } })))).toEqual([]);
    });
  });

  describe('country-mismatch', () => {
    it('fires when addresses are in different countries, ignoring case', () => {
      const body = profileAccess({ newAddress: { country: 'US' }, newPaymentMethods: { billingDetails: { address: { country: 'NG' } } } });
      const d = run('profile-access', body);
      expect(d.reasonCodes).toEqual(['COUNTRY_MISMATCH']);
      expect(d.firedRules[0]!.explanation).toBe('Addresses in NG, US.');
      const same = profileAccess({ newAddress: { country: 'us' }, newPaymentMethods: { billingDetails: { address: { country: 'US' } } } });
      expect(fired(run('profile-access', same))).toEqual([]);
    });
  });

  it('declines when a DECLINE rule fires with verification rules, listing every reason in rule order', () => {
    const body = profileAccess({ accountOwner: { email: 'x@mailinator.com' }, newAddress: { country: 'US' }, newPaymentMethods: { billingDetails: { address: { country: 'FR' } } } });
    const d = run('profile-access', body, { accountAttempts: 9 });
    expect(d.vendorDecision).toBe('DECLINE');
    expect(d.reasonCodes).toEqual(['DISPOSABLE_EMAIL_DOMAIN', 'ACCOUNT_VELOCITY', 'COUNTRY_MISMATCH']);
    expect(d.recommendations).toEqual([]);
  });

  it('is deterministic: the same input gives the same decision, explanation included', () => {
    const body = itemListing({ listedItems: [{ basicItemData: { price: 10, quantity: 1 }, beneficiaries: [{ cryptoWallet: {}, address: { country: 'DE' } }] }] });
    const history = { accountAttempts: 2, ipAttempts: 3, accountSeen: true, ipUsedByAccount: false };
    const first = run('item-listing', body, history);
    for (let i = 0; i < 5; i++) expect(run('item-listing', structuredClone(body), { ...history })).toEqual(first);
  });

  describe('sandbox addresses', () => {
    it.each([
      ['approve@vendor.test', 'APPROVE'],
      ['decline@vendor.test', 'DECLINE'],
      ['verify@vendor.test', 'VERIFICATION_REQUIRED'],
      ['review@vendor.test', 'NOT_REVIEWED'],
    ])('%s forces %s over the rules', (email, decision) => {
      const d = run('profile-access', profileAccess({ accountOwner: { email }, newAddress: { country: 'US' }, newPaymentMethods: { billingDetails: { address: { country: 'FR' } } } }), { accountAttempts: 50 });
      expect(d.vendorDecision).toBe(decision);
      expect(d.reasonCodes).toEqual(['SANDBOX_EMAIL']);
      expect(d.firedRules.map((r) => r.id)).toEqual(['sandbox-email']);
      expect(d.recommendations.length > 0).toBe(decision === 'VERIFICATION_REQUIRED');
    });
    it('reads accountOwner.email, then newEmail.email, then the first emailsInAccount', () => {
      expect(run('profile-access', profileAccess({ accountOwner: {}, newEmail: { email: 'Decline@Vendor.test' } })).vendorDecision).toBe('DECLINE');
      const listing = itemListing({ accountData: { emailsInAccount: [{ email: 'verify@vendor.test' }, { email: 'decline@vendor.test' }] } });
      expect(run('item-listing', listing).vendorDecision).toBe('VERIFICATION_REQUIRED');
      const second = itemListing({ accountData: { emailsInAccount: [{ email: 'a@example.com' }, { email: 'decline@vendor.test' }] } });
      expect(run('item-listing', second).vendorDecision).toBe('APPROVE');
    });
  });
});
