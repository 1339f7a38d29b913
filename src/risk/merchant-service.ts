/**
 * Merchants and 3DS enrollment (document 3 §2, §4; docs/platform.md#credentials). A merchant is a new site whose key is shown once;
 * it belongs to the site that created it, and only that site (or the merchant's own site) sees it: to anyone else
 * it does not exist (404). An enrollment is a row with a due time that the scheduler completes.
 */
import { DomainError } from '../kernel/errors.ts';
import { duplicateMerchantName, merchantNameKey, type MerchantInput } from './merchant-rules.ts';
import { ENROLLMENT_DELAY_MS, enrollmentOutcome, type EnrollmentStatus, type Offerings } from './three-ds.ts';
import { isUniqueViolation } from '../db/database.ts';
import * as repo from './merchant-repository.ts';
import { randomId } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { Site, SiteService } from '../sites/site-service.ts';
import { transaction } from '../db/transaction.ts';

export interface MerchantView {
  id: string;
  ownerSiteId: string;
  merchantId: string;
  name: string;
  defaultMerchantCategoryCode: string;
  merchantAccountCreation: MerchantInput['merchantAccountCreation'];
  createdAt: number;
}

export interface EnrollmentView {
  requestId: string;
  merchantId: string;
  status: EnrollmentStatus;
  reason: string | null;
  offerings: Offerings;
  createdAt: number;
  completedAt: number | null;
}

export interface MerchantService {
  /** The merchant and its new site's API key (shown once, docs/platform.md#credentials). */
  createMerchant(site: Site, input: MerchantInput): Promise<{ merchant: MerchantView; apiKey: string }>;
  /**
   * A new API key for the merchant, shown once; the old key stops working. Its owner or the merchant's own site may
   * ask (a lost key is replaced, never recovered: docs/platform.md#credentials); to anyone else it does not exist.
   */
  replaceMerchantKey(site: Site, merchantId: string): Promise<{ id: string; apiKey: string }>;
  /** Staff (no site) see every merchant; a site sees its own and itself. */
  findMerchant(id: string, site?: Site): Promise<MerchantView | null>;
  enroll(site: Site, merchantId: string, offerings: Offerings): Promise<EnrollmentView>;
  enrollment(site: Site, merchantId: string, requestId: string): Promise<EnrollmentView>;
  enrollmentsOf(merchantId: string): Promise<EnrollmentView[]>;
  /** Completes every due PENDING request (claimed one by one); returns how many this call completed. */
  completeDueEnrollments(): Promise<number>;
  nextEnrollmentDue(): Promise<number | null>;
  /** Tells the local scheduler of each new request's due time (other instances find it on their next poll). */
  onEnrollmentQueued(listener: (dueAt: number) => void): () => void;
}

const NO_MERCHANT = 'No merchant was found with that id.';

export function createMerchantService({ database, clock, sites }: ServiceDeps & { sites: SiteService }): MerchantService {
  const { db } = database;
  const listeners = new Set<(dueAt: number) => void>();

  /** The merchant as `site` may see it: its owner's, or its own; staff (no site) see all. Null otherwise. */
  async function visibleRow(id: string, site?: Site): Promise<repo.MerchantRow | null> {
    const row = await repo.findMerchant(db, id);
    return row && (!site || row.owner_site_id === site.siteId || row.id === site.siteId) ? row : null;
  }

  async function visibleMerchant(id: string, site: Site): Promise<repo.MerchantRow> {
    const row = await visibleRow(id, site);
    if (!row) throw new DomainError('not_found', NO_MERCHANT);
    return row;
  }

  return {
    async createMerchant(site, input) {
      try {
        return await transaction(db, async (trx) => {
          const credentials = await sites.createMerchantSite(trx, site.siteId);
          const row: repo.MerchantRow = {
            id: credentials.siteId,
            owner_site_id: site.siteId,
            merchant_id: input.merchantId,
            name: input.name,
            name_key: merchantNameKey(input.name),
            mcc: input.defaultMerchantCategoryCode,
            account_creation: input.merchantAccountCreation === undefined ? null : JSON.stringify(input.merchantAccountCreation),
            created_at: clock.now(),
          };
          await repo.insertMerchant(trx, row);
          return { merchant: toMerchant(row), apiKey: credentials.apiKey };
        });
      } catch (error) {
        if (isUniqueViolation(error, { index: 'merchants_owner_name', column: 'merchants.name_key' })) {
          const existing = await repo.findMerchantByName(db, site.siteId, merchantNameKey(input.name));
          throw duplicateMerchantName(input.name, existing?.id);
        }
        throw error;
      }
    },

    async replaceMerchantKey(site, merchantId) {
      const merchant = await visibleMerchant(merchantId, site);
      const credentials = await sites.replaceMerchantKey(merchant.id);
      if (!credentials) throw new DomainError('not_found', NO_MERCHANT);
      return { id: credentials.siteId, apiKey: credentials.apiKey };
    },

    async findMerchant(id, site) {
      const row = await visibleRow(id, site);
      return row ? toMerchant(row) : null;
    },

    async enroll(site, merchantId, offerings) {
      const merchant = await visibleMerchant(merchantId, site);
      const now = clock.now();
      const row: repo.ThreeDsRequestRow = {
        id: randomId('3ds_'),
        merchant_site_id: merchant.id,
        offerings: JSON.stringify(offerings),
        status: 'PENDING',
        reason: null,
        due_at: now + ENROLLMENT_DELAY_MS,
        created_at: now,
        completed_at: null,
      };
      await repo.insertThreeDsRequest(db, row);
      for (const listener of listeners) listener(row.due_at);
      return toEnrollment(row);
    },

    async enrollment(site, merchantId, requestId) {
      const merchant = await visibleMerchant(merchantId, site);
      const row = await repo.findThreeDsRequest(db, merchant.id, requestId);
      if (!row) throw new DomainError('not_found', 'No 3DS enrollment request was found with that id for this merchant.');
      return toEnrollment(row);
    },

    async enrollmentsOf(merchantId) {
      return (await repo.threeDsRequestsOf(db, merchantId)).map(toEnrollment);
    },

    async completeDueEnrollments() {
      let completed = 0;
      for (;;) {
        const due = await repo.dueThreeDsRequests(db, clock.now(), 100);
        for (const row of due) {
          const outcome = enrollmentOutcome(JSON.parse(row.offerings) as Offerings);
          const reason = outcome.status === 'FAILED' ? outcome.reason : null;
          if (await repo.completeThreeDsRequest(db, row.id, outcome.status, reason, clock.now())) completed++;
        }
        if (due.length < 100) return completed;
      }
    },

    nextEnrollmentDue: () => repo.nextThreeDsDue(db),

    onEnrollmentQueued(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

function toMerchant(row: repo.MerchantRow): MerchantView {
  return {
    id: row.id,
    ownerSiteId: row.owner_site_id,
    merchantId: row.merchant_id,
    name: row.name,
    defaultMerchantCategoryCode: row.mcc,
    merchantAccountCreation: row.account_creation === null ? undefined : (JSON.parse(row.account_creation) as MerchantView['merchantAccountCreation']),
    createdAt: Number(row.created_at),
  };
}

function toEnrollment(row: repo.ThreeDsRequestRow): EnrollmentView {
  return {
    requestId: row.id,
    merchantId: row.merchant_site_id,
    status: row.status as EnrollmentStatus,
    reason: row.reason,
    offerings: JSON.parse(row.offerings) as Offerings,
    createdAt: Number(row.created_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
  };
}
