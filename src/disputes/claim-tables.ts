/** Claims and evidence (issue 7, document 2 §2 "Request for evidence"): table shapes as kysely sees them (migration 0006). */
import type { Selectable } from 'kysely';

export type ClaimStatus = 'OPEN' | 'EVIDENCE_SUBMITTED' | 'EXPIRED';

export interface ClaimTable {
  /** Document 2: int64 claimId, from the `claim_id` counter. */
  claim_id: number;
  /** The platform site the claim belongs to; only its credentials may submit evidence. */
  site_id: string;
  order_id: string;
  claim_type: string;
  reason_code: string | null;
  reason_category: string | null;
  card_type: string | null;
  /** In the claim currency's major unit (document 2 `amountClaimCurrency: number`). */
  amount: number;
  currency: string;
  processor_name: string | null;
  processor_case_number: string | null;
  processor_charge_id: string | null;
  /** YYYY-MM-DD, as sent in the notification. */
  issue_date: string;
  due_date: string;
  /** The end of the due date (UTC, epoch ms): evidence is accepted and reminders sent until then. */
  due_at: number;
  /** JSON array of the canonical evidence types requested. */
  requested_types: string;
  status: ClaimStatus;
  /** When the next reminder is due; null once no reminder will be sent. */
  next_reminder_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ClaimEvidenceTable {
  id: string;
  claim_id: number;
  evidence_type: string;
  /** `FILE` (evidence file operation) or `DATA_POINTS` (a data point group). */
  kind: string;
  file_name: string | null;
  content_type: string | null;
  size_bytes: number | null;
  /** sha256 of the file, so staff can match a copy the merchant holds. */
  sha256: string | null;
  /**
   * The file's bytes exactly as uploaded (migration 0008: BLOB on SQLite, bytea on PostgreSQL); null for data
   * points and for files stored before 0008 (docs/notifications.md#evidence-files).
   */
  content: Uint8Array | null;
  /** JSON of the data point group's entries. */
  data: string | null;
  created_at: number;
}

export interface ClaimTables {
  claims: ClaimTable;
  claim_evidence: ClaimEvidenceTable;
}

export type ClaimRow = Selectable<ClaimTable>;
