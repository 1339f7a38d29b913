/**
 * The vocabulary of the rules engine. A rule is a small pure function over the facts of one request and the
 * account's history before it; it fires with a sentence saying why, or stays silent. Decisions are the values of
 * docs/platform.md#decisions; recommendations are document 2's kinds of extra verification (SMS, email, ID, new-device alert).
 */
import type { VendorDecision } from '../../kernel/vendor-decisions.ts';
import type { RequestKind } from '../account-requests.ts';

export type Recommendation = 'SMS_VERIFICATION' | 'PUSH_VERIFICATION' | 'EMAIL_VERIFICATION' | 'ID_VERIFICATION' | 'NEW_DEVICE_ALERT';

/** What a request says, reduced to what the rules read (facts.ts builds it from the body). */
export interface RequestFacts {
  kind: RequestKind;
  accountId: string;
  eventTime: number;
  customerIp: string | null;
  /** Emails the request carries; `verified` is null when the request says nothing about verification. */
  emails: Array<{ email: string; verified: boolean | null }>;
  phones: Array<{ phone: string; verified: boolean | null }>;
  /** Profile access: a new payment method and a new address in the same request. */
  newPaymentMethod: boolean;
  newAddress: boolean;
  /** Upper-cased countries of every address in the request. */
  countries: string[];
  /** Item listing: a beneficiary is paid out to a crypto wallet. */
  cryptoPayout: boolean;
  /** Item listing: the newest seller account's creation time (epoch ms), when given. */
  sellerCreatedAt: number | null;
  /** Item listing: the highest price × quantity of one listed item. */
  highestListingValue: number;
}

/** The account's requests before this one's eventTime, counted by the service from stored decisions. */
export interface RequestHistory {
  /** Requests of this account in the velocity window ending at eventTime. */
  accountAttempts: number;
  /** Requests from this customer IP (any account) in the same window. */
  ipAttempts: number;
  /** The account has earlier requests. */
  accountSeen: boolean;
  /** An earlier request of the account came from this request's customer IP. */
  ipUsedByAccount: boolean;
}

export interface RuleInput {
  facts: RequestFacts;
  history: RequestHistory;
}

export type RuleOutcome = 'DECLINE' | 'VERIFICATION_REQUIRED';

export interface Rule {
  id: string;
  description: string;
  reasonCode: string;
  outcome: RuleOutcome;
  /** Verification that would clear it (only for VERIFICATION_REQUIRED rules). */
  recommendations: readonly Recommendation[];
  /** Why it fired, or null when it did not. */
  evaluate(input: RuleInput): string | null;
}

/** One rule that fired, as stored with the decision and shown to staff. */
export interface FiredRule {
  id: string;
  reasonCode: string;
  outcome: RuleOutcome | 'SANDBOX';
  description: string;
  explanation: string;
}

export interface Decision {
  vendorDecision: VendorDecision;
  reasonCodes: string[];
  recommendations: Recommendation[];
  firedRules: FiredRule[];
}
