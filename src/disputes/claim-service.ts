/**
 * Claims (document 2 §2, docs/notifications.md#triggers): staff open one, which queues a `/requestforevidencenotification` in the
 * same transaction; while evidence is missing and the due date is ahead, a reminder every EVIDENCE_REMINDER_HOURS
 * lists only the types still missing; past the end of the due date an open claim becomes EXPIRED.
 */
import { DomainError } from '../kernel/errors.ts';
import {
  claimableOrderOwners,
  countClaims,
  dueReminders,
  expireClaims,
  findClaim,
  insertClaim,
  listClaims,
  nextClaimId,
  nextClaimWork,
  satisfiedTypes,
  takeReminder,
  updateClaim,
  type ClaimRow,
} from './claim-repository.ts';
import type { Db } from '../db/database.ts';
import { announceQueued, queueNotification, type Queued } from '../notifications/outbox-service.ts';
import { checkClaimInput, claimSite, type OpenClaimInput } from './claim-input.ts';
import { evidenceRequestBody, rowToClaim, type Claim } from './claim-mapping.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { SiteService } from '../sites/site-service.ts';
import { readTogether, transaction } from '../db/transaction.ts';

export const CLAIMS_PAGE_DEFAULT = 50;
export const CLAIMS_PAGE_MAX = 200;
const REMINDER_BATCH = 100;

export interface ClaimPage {
  edges: Array<{ cursor: string; node: Claim }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

export interface ClaimService {
  open(input: OpenClaimInput): Promise<Claim>;
  list(query: { first?: number | null; after?: string | null }): Promise<ClaimPage>;
  /** One claim as it stands now, with its satisfied and missing types (the dispatcher asks at send time). */
  find(claimId: number): Promise<Claim | null>;
  /** Sends the reminders that are due and expires claims past their due date; returns when to look again. */
  runDue(): Promise<number | null>;
}

const cursorOf = (claimId: number) => Buffer.from(String(claimId), 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9]{1,18}$/u.test(text) || cursorOf(Number(text)) !== cursor) {
    throw new DomainError('validation_failed', 'The cursor is not one this list gave out.', { field: 'after' });
  }
  return Number(text);
}

/** Reloads a claim with its satisfied types (inside a transaction when given one). */
export async function loadClaim(db: Db, claimId: number, lock = false): Promise<Claim | null> {
  const row = await findClaim(db, claimId, lock);
  return row ? withEvidence(db, row) : null;
}

async function withEvidence(db: Db, row: ClaimRow): Promise<Claim> {
  const satisfied = await satisfiedTypes(db, [Number(row.claim_id)]);
  return rowToClaim(row, satisfied.get(Number(row.claim_id)) ?? []);
}

export function createClaimService(deps: ServiceDeps & { sites: SiteService }): ClaimService {
  const { database, clock, bus, config, sites } = deps;
  const reminderMs = config.evidenceReminderHours * 3_600_000;
  /** The next reminder after `from`, or none when it would fall on or after the end of the due date. */
  const reminderAfter = (from: number, dueAt: number) => (from + reminderMs < dueAt ? from + reminderMs : null);

  return {
    async open(input) {
      const now = clock.now();
      const checked = checkClaimInput(input, now);
      if (checked.siteId !== null && !(await sites.find(checked.siteId))) throw new DomainError('not_found', 'No platform site has that siteId.', { field: 'siteId' });
      const { claim, queued } = await transaction(database.db, async (trx) => {
        // A payment named by its id is kept as its own orderId, which its other claims may name (a merchant review:
        // one payment's evidence requests named "A-1" or "pay_…" as staff typed it).
        const { sleeveOrder, paymentSites, orderId } = await claimableOrderOwners(trx, checked.orderId);
        const owners = [...new Set([...(sleeveOrder ? [config.vendorSiteId] : []), ...paymentSites.map((site) => site ?? config.vendorSiteId)])];
        if (owners.length === 0) throw new DomainError('not_found', 'No sleeve order or payment has that orderId.', { field: 'orderId' });
        const siteId = claimSite(checked.orderId, checked.siteId, owners);
        const claimId = await nextClaimId(trx);
        await insertClaim(trx, {
          claim_id: claimId,
          site_id: siteId,
          order_id: orderId,
          claim_type: checked.claimType,
          reason_code: checked.reasonCode,
          reason_category: checked.reasonCategory,
          card_type: checked.cardType,
          amount: checked.amount,
          currency: checked.currency,
          processor_name: checked.processorName,
          processor_case_number: checked.processorCaseNumber,
          processor_charge_id: checked.processorChargeId,
          issue_date: checked.issueDate,
          due_date: checked.dueDate,
          due_at: checked.dueAt,
          requested_types: JSON.stringify(checked.requestedEvidenceTypes),
          status: 'OPEN',
          next_reminder_at: reminderAfter(now, checked.dueAt),
          created_at: now,
          updated_at: now,
        });
        const opened = (await loadClaim(trx, claimId))!;
        const body = { ...evidenceRequestBody(opened, now) };
        const queued = await queueNotification(trx, '/requestforevidencenotification', body, { subject: String(claimId), now: now, site: opened.siteId });
        return { claim: opened, queued };
      });
      announceQueued(bus, [queued]);
      return claim;
    },

    async list({ first, after }) {
      const limit = Math.min(Math.max(first ?? CLAIMS_PAGE_DEFAULT, 1), CLAIMS_PAGE_MAX);
      const afterId = after ? decodeCursor(after) : undefined;
      // The page, its count and its evidence from one snapshot: a claim is EVIDENCE_SUBMITTED when none is missing.
      return readTogether(database.db, async (trx) => {
        const [rows, totalCount] = await Promise.all([listClaims(trx, { afterId, limit: limit + 1 }), countClaims(trx)]);
        const page = rows.slice(0, limit);
        const satisfied = await satisfiedTypes(trx, page.map((r) => Number(r.claim_id)));
        const edges = page.map((row) => ({ cursor: cursorOf(Number(row.claim_id)), node: rowToClaim(row, satisfied.get(Number(row.claim_id)) ?? []) }));
        return { edges, pageInfo: { hasNextPage: rows.length > limit, endCursor: edges.at(-1)?.cursor ?? null }, totalCount };
      });
    },

    find: (claimId) => readTogether(database.db, (trx) => loadClaim(trx, claimId)),

    async runDue() {
      const now = clock.now();
      await expireClaims(database.db, now);
      const queued: Queued[] = [];
      for (const row of await dueReminders(database.db, now, REMINDER_BATCH)) {
        const reminder = await transaction(database.db, async (trx) => {
          const expected = Number(row.next_reminder_at);
          // Conditional: another instance (or an earlier sweep) that took this reminder makes this a no-op.
          // A sweep that runs late (the server was down) sends one reminder, not one for each period missed.
          const next = reminderAfter(Math.max(expected, now), Number(row.due_at));
          if (!(await takeReminder(trx, Number(row.claim_id), expected, next, now))) return null;
          const claim = (await loadClaim(trx, Number(row.claim_id)))!;
          if (claim.missingEvidenceTypes.length === 0) {
            await updateClaim(trx, claim.claimId, { status: 'EVIDENCE_SUBMITTED', nextReminderAt: null, now });
            return null;
          }
          const body = { ...evidenceRequestBody(claim, now) };
          return queueNotification(trx, '/requestforevidencenotification', body, { subject: String(claim.claimId), now: now, site: claim.siteId });
        });
        if (reminder) queued.push(reminder);
      }
      announceQueued(bus, queued);
      return nextClaimWork(database.db);
    },
  };
}
