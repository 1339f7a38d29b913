/** Claim rows to domain claims, and a claim to its document 2 evidence request body: the one place for both. */
import type { ClaimRow, ClaimStatus } from './claim-tables.ts';
import type { ClaimType, EvidenceRequestBody, ReasonCategory } from '../notifications/bodies.ts';

export interface Claim {
  claimId: number;
  siteId: string;
  orderId: string;
  claimType: ClaimType;
  reasonCode: string | null;
  reasonCategory: ReasonCategory | null;
  cardType: string | null;
  amount: number;
  currency: string;
  processorName: string | null;
  processorCaseNumber: string | null;
  processorChargeId: string | null;
  issueDate: string;
  dueDate: string;
  /** The end of the due date (epoch ms, UTC). */
  dueAt: number;
  status: ClaimStatus;
  requestedEvidenceTypes: string[];
  /** Given by file or by data points; never requested again. */
  satisfiedEvidenceTypes: string[];
  missingEvidenceTypes: string[];
  nextReminderAt: number | null;
  createdAt: number;
}

export function rowToClaim(row: ClaimRow, satisfied: readonly string[]): Claim {
  const requested = JSON.parse(row.requested_types) as string[];
  return {
    claimId: Number(row.claim_id),
    siteId: row.site_id,
    orderId: row.order_id,
    claimType: row.claim_type as ClaimType,
    reasonCode: row.reason_code,
    reasonCategory: row.reason_category as ReasonCategory | null,
    cardType: row.card_type,
    amount: Number(row.amount),
    currency: row.currency,
    processorName: row.processor_name,
    processorCaseNumber: row.processor_case_number,
    processorChargeId: row.processor_charge_id,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    dueAt: Number(row.due_at),
    status: row.status,
    requestedEvidenceTypes: requested,
    satisfiedEvidenceTypes: requested.filter((t) => satisfied.includes(t)),
    missingEvidenceTypes: requested.filter((t) => !satisfied.includes(t)),
    nextReminderAt: row.next_reminder_at == null ? null : Number(row.next_reminder_at),
    createdAt: Number(row.created_at),
  };
}

/**
 * Document 2 §2 "Request for evidence body" for the types still missing. Optional fields are left out when
 * unknown; `hoursLeftUntilDisputed` and `uniqueMessageId` are filled in at send time (send-time.ts).
 */
export function evidenceRequestBody(claim: Claim, now: number): EvidenceRequestBody {
  const optional = {
    processorCaseNumber: claim.processorCaseNumber,
    processorChargeId: claim.processorChargeId,
    processorName: claim.processorName,
    reasonCode: claim.reasonCode,
    reasonCategory: claim.reasonCategory,
    cardType: claim.cardType,
  };
  return {
    timestamp: new Date(now).toISOString(),
    orderId: claim.orderId,
    claimId: claim.claimId,
    issueDate: claim.issueDate,
    dueDate: claim.dueDate,
    claimType: claim.claimType,
    amountClaimCurrency: claim.amount,
    claimCurrency: claim.currency,
    requestedEvidenceTypes: claim.missingEvidenceTypes,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null)),
  };
}
