/**
 * The staff `openClaim` input (document 2 §2 "Request for evidence"): checked here, before any write. A wrong
 * shape is 400; a well-formed value that breaks a rule (a due date already past, a negative amount) is 422.
 */
import { DomainError } from '../kernel/errors.ts';
import { CLAIM_TYPES, REASON_CATEGORIES, type ClaimType, type ReasonCategory } from '../notifications/bodies.ts';
import { endOfDate } from '../notifications/send-time.ts';
import { isCalendarDay } from '../kernel/calendar-day.ts';

export interface OpenClaimInput {
  orderId: string;
  claimType: ClaimType;
  reasonCode?: string | null;
  reasonCategory?: ReasonCategory | null;
  cardType?: string | null;
  amount: number;
  currency: string;
  processorName?: string | null;
  processorCaseNumber?: string | null;
  processorChargeId?: string | null;
  /** YYYY-MM-DD; today (UTC) when omitted. */
  issueDate?: string | null;
  dueDate: string;
  requestedEvidenceTypes: readonly string[];
  /** The site of the order or payment (claimSite): given, it must be that site; omitted, it is found. */
  siteId?: string | null;
}

export type CheckedClaimInput = Required<{ [K in keyof OpenClaimInput]: Exclude<OpenClaimInput[K], undefined> }> & {
  issueDate: string;
  dueAt: number;
  requestedEvidenceTypes: string[];
  /** As given; null when omitted. */
  siteId: string | null;
};

/** Canonical evidence types are upper-case identifiers (the glossary itself is "not shown" in document 2). */
const EVIDENCE_TYPE = /^[A-Z][A-Z0-9_]{1,63}$/u;

const invalid = (field: string, message: string) => new DomainError('validation_failed', message, { field, errors: [{ field, message }] });

function optionalText(input: OpenClaimInput, field: 'reasonCode' | 'cardType' | 'processorName' | 'processorCaseNumber' | 'processorChargeId', max: number): string | null {
  const value = input[field]?.trim();
  if (!value) return null;
  if (value.length > max) throw invalid(field, `${field} is at most ${max} characters.`);
  return value;
}

export function checkClaimInput(input: OpenClaimInput, now: number): CheckedClaimInput {
  const orderId = input.orderId.trim();
  if (!orderId || orderId.length > 128) throw invalid('orderId', 'orderId names a sleeve order or a payment (1 to 128 characters).');
  if (!CLAIM_TYPES.includes(input.claimType)) throw invalid('claimType', `claimType is one of ${CLAIM_TYPES.join(', ')}.`);
  if (input.reasonCategory != null && !REASON_CATEGORIES.includes(input.reasonCategory)) {
    throw invalid('reasonCategory', `reasonCategory is one of ${REASON_CATEGORIES.join(', ')}.`);
  }
  if (!Number.isFinite(input.amount) || input.amount <= 0) throw invalid('amount', 'amount is a positive number in the claim currency.');
  if (!/^[A-Z]{3}$/u.test(input.currency)) throw invalid('currency', 'currency is a three-letter ISO 4217 code, like USD.');
  const issueDate = input.issueDate ?? new Date(now).toISOString().slice(0, 10);
  if (!isCalendarDay(issueDate)) throw invalid('issueDate', 'issueDate is a date like 2026-11-22.');
  if (!isCalendarDay(input.dueDate)) throw invalid('dueDate', 'dueDate is a date like 2026-12-01.');
  if (input.dueDate < issueDate) throw invalid('dueDate', 'dueDate is on or after issueDate.');
  const dueAt = endOfDate(input.dueDate);
  if (dueAt <= now) throw invalid('dueDate', 'dueDate has already passed.');
  const requested = [...new Set(input.requestedEvidenceTypes.map((t) => t.trim()))];
  if (requested.length === 0) throw invalid('requestedEvidenceTypes', 'Request at least one evidence type.');
  const bad = requested.find((t) => !EVIDENCE_TYPE.test(t));
  if (bad !== undefined) throw invalid('requestedEvidenceTypes', `"${bad.slice(0, 64)}" is not an evidence type like PROOF_OF_DELIVERY or INVOICE.`);
  return {
    orderId,
    claimType: input.claimType,
    reasonCode: optionalText(input, 'reasonCode', 64),
    reasonCategory: input.reasonCategory ?? null,
    cardType: optionalText(input, 'cardType', 40),
    amount: input.amount,
    currency: input.currency,
    processorName: optionalText(input, 'processorName', 64),
    processorCaseNumber: optionalText(input, 'processorCaseNumber', 128),
    processorChargeId: optionalText(input, 'processorChargeId', 128),
    issueDate,
    dueDate: input.dueDate,
    dueAt,
    requestedEvidenceTypes: requested,
    siteId: input.siteId?.trim() || null,
  };
}

/**
 * The site a claim belongs to: its order's (docs/merchant-webhooks.md#ownership). A sleeve order is the bootstrap site's;
 * a payment its own site's, found by its id or by the merchant's orderId, which several sites may share. The
 * evidence request goes to that site's endpoints and only its credentials answer the claim, so a claim may not be
 * opened for another site's order, and when the orderId names orders of several sites the site must be given.
 */
export function claimSite(orderId: string, given: string | null, owners: readonly string[]): string {
  if (given !== null) {
    if (owners.includes(given)) return given;
    throw invalid('siteId', `orderId ${orderId} is not an order or payment of site ${given}: a claim belongs to its order's site (${owners.join(', ')}).`);
  }
  if (owners.length === 1) return owners[0]!;
  throw invalid('siteId', `orderId ${orderId} names orders of several sites (${owners.join(', ')}): give siteId.`);
}
