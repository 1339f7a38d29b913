/**
 * Staff review (docs/notifications.md#triggers): set an account's status, decide an item listing, release or cancel an order or a
 * payment. Each decision and the document 2 notification it causes are written in one transaction, announced after
 * commit. A CANCEL of a sleeve order goes through the staff service (which frees the email and refunds a paid order
 * after commit), which records the decision and queues its notification inside the cancel's own transaction: the
 * three commit together or not at all (docs/notifications.md#the-outbox), and a refused cancel records nothing.
 */
import { DomainError } from '../kernel/errors.ts';
import { checkReviewLabels, checkStaffDecision, type StaffDecisionInput } from './review-rules.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import * as accounts from './account-repository.ts';
import * as decisions from './order-decision-repository.ts';
import {
  dashboardLinks,
  epochSeconds,
  numericTimestamp,
  type AccountDecision,
  type ItemListingUpdateBody,
  type MerchantAction,
  type OrderStatusUpdateBody,
} from '../notifications/bodies.ts';
import { announceQueued, queueNotification, type Queued } from '../notifications/outbox-service.ts';
import { applyAccountState, toAccountState, toRequestView, type AccountRequestView, type AccountState } from './account-record-service.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { OrderStaffService } from '../orders/staff-service.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import { transaction } from '../db/transaction.ts';

export interface AccountView extends AccountState {
  /** The latest HISTORY_MAX requests decided for the account, oldest event first, with the rules that fired. */
  decisions: AccountRequestView[];
}

export interface OrderDecisionView {
  orderId: string;
  kind: 'SLEEVE_ORDER' | 'PAYMENT';
  action: MerchantAction;
  triggeredBy: string;
  comments: string | null;
  decidedAt: number;
}

/**
 * How staff name an account: an account id is one site's (docs/platform.md#accounts-per-site), so the site is needed
 * once more than one site holds that id; alone, the id names the one account that has it.
 */
export interface AccountAddress {
  accountId: string;
  siteId?: string | null;
}

export interface StaffDecision extends StaffDecisionInput {
  action: MerchantAction;
}

export interface ReviewService {
  /** null when unknown; VALIDATION_FAILED (field siteId) when no site is given and several sites hold the id. */
  account(address: AccountAddress): Promise<AccountView | null>;
  /** The account of every site that holds this id, by site id. */
  accounts(accountId: string): Promise<AccountView[]>;
  reviewAccount(address: AccountAddress, decision: AccountDecision, reasons: string[], recommendations: string[]): Promise<AccountView>;
  itemListingRequests(reviewStatus: string, first: number): Promise<AccountRequestView[]>;
  /** `siteId` null: the one site with a listing of that event id (validation_failed, field siteId, when several). */
  decideItemListing(eventId: string, siteId: string | null, decision: StaffDecision): Promise<AccountRequestView>;
  decideOrder(orderId: string, decision: StaffDecision): Promise<OrderDecisionView>;
  /** The staff decision on an order or payment, by the orderId decideOrder was given; null when none. */
  orderDecision(orderId: string): Promise<OrderDecisionView | null>;
}

const LIST_MAX = 200;
export const HISTORY_MAX = 200;
const alreadyDecided = (what: string) => new DomainError('duplicate', `${what} was already decided by staff.`);

export function createReviewService(
  deps: ServiceDeps & { staff: Pick<OrderStaffService, 'cancel' | 'find'>; payments: Pick<PaymentService, 'find'> },
): ReviewService {
  const { database, clock, bus, publicUrl, staff, payments } = deps;
  const { db } = database;

  async function viewOf(row: accounts.AccountRow): Promise<AccountView> {
    const history = await accounts.requestsOfAccount(db, row.site_id, row.account_id, HISTORY_MAX);
    return { ...toAccountState(row), decisions: history.map(toRequestView) };
  }

  /** The account `address` names (read in `on`, which may be a transaction), or undefined. */
  async function locate(on: Db, { accountId, siteId }: AccountAddress): Promise<accounts.AccountRow | undefined> {
    if (siteId) return accounts.findAccount(on, siteId, accountId);
    const rows = await accounts.accountsWithId(on, accountId);
    if (rows.length > 1) {
      throw new DomainError('validation_failed', `${rows.length} sites hold an account ${accountId}: give the siteId of the one meant.`, { field: 'siteId' });
    }
    return rows[0];
  }

  /** Which order `orderId` names: a sleeve order number, else a payment id (services.payments). */
  /** What staff decide on, and its site (docs/merchant-webhooks.md#ownership): sleeve orders are the bootstrap site's. */
  async function target(orderId: string): Promise<{ kind: OrderDecisionView['kind']; cancelled: boolean; siteId: string }> {
    if (/^[0-9]{1,15}$/u.test(orderId)) {
      const order = await staff.find(orderId);
      if (order) return { kind: 'SLEEVE_ORDER', cancelled: order.status === 'cancelled', siteId: deps.config.vendorSiteId };
    }
    const payment = await payments.find(orderId);
    if (payment) return { kind: 'PAYMENT', cancelled: false, siteId: payment.siteId ?? deps.config.vendorSiteId };
    throw new DomainError('not_found', 'No order or payment was found with that id.');
  }

  return {
    async account(address) {
      const row = await locate(db, address);
      return row ? viewOf(row) : null;
    },

    async accounts(accountId) {
      return Promise.all((await accounts.accountsWithId(db, accountId)).map(viewOf));
    },

    async reviewAccount(address, decision, reasonsIn, recommendationsIn) {
      const reasons = checkReviewLabels('reasons', reasonsIn);
      const recommendations = checkReviewLabels('recommendations', recommendationsIn);
      const { siteId, queued } = await transaction(db, async (trx) => {
        const found = await locate(trx, address);
        if (!found) throw new DomainError('not_found', 'No account was found with that id.');
        const next = { siteId: found.site_id, accountId: found.account_id, status: decision, reasons, recommendations, updatedAt: clock.now() };
        return { siteId: found.site_id, queued: await applyAccountState(trx, next, publicUrl, { replaceReasons: true }) };
      });
      if (queued) announceQueued(bus, [queued]);
      return viewOf((await accounts.findAccount(db, siteId, address.accountId))!);
    },

    async itemListingRequests(reviewStatus, first) {
      const rows = await accounts.itemListingsByReview(db, reviewStatus, Math.min(Math.max(1, first), LIST_MAX));
      return rows.map(toRequestView);
    },

    async decideItemListing(eventId, siteId, decision) {
      const { triggeredBy, comments } = checkStaffDecision(decision);
      // Event ids are the merchant's own, per site: two sites may each have a listing `lst-1`.
      const rows = (await accounts.findItemListings(db, eventId)).filter((r) => siteId === null || r.site_id === siteId);
      if (rows.length === 0) throw new DomainError('not_found', 'No item listing request was found with that event id.');
      const sites = new Set(rows.map((r) => r.site_id));
      if (sites.size > 1) {
        throw new DomainError('validation_failed', `${sites.size} sites have an item listing ${eventId}: give the siteId of the one meant.`, { field: 'siteId' });
      }
      const open = rows.find((r) => r.review_status === null || r.review_status === 'AWAITING_REVIEW');
      if (!open) throw alreadyDecided('This item listing request');
      const now = clock.now();
      const status = decision.action === 'RELEASE' ? 'RELEASED' : 'CANCELLED';
      const queued = await transaction(db, async (trx) => {
        if (!(await accounts.markListingReviewed(trx, open.id, { status, by: triggeredBy, comments, at: now }))) {
          throw alreadyDecided('This item listing request');
        }
        const body: ItemListingUpdateBody = {
          timestamp: numericTimestamp(now),
          type: 'ITEM_LISTING_REQUEST_UPDATE',
          accountId: open.account_id,
          eventId,
          correlationId: open.correlation_id,
          merchantAction: decision.action,
          triggeredBy,
          ...(comments ? { agentComments: comments } : {}),
          linkToEventInVendorDashboard: dashboardLinks.itemListing(publicUrl, eventId, open.site_id),
        };
        return queueNotification(trx, '/itemlistingrequestupdatenotification', body, { subject: open.account_id, now: now, site: open.site_id });
      });
      announceQueued(bus, [queued]);
      return toRequestView((await accounts.findRequestByEvent(db, open.site_id, 'item-listing', eventId))!);
    },

    async orderDecision(orderId) {
      // A sleeve order number is digits; a payment id never is (pay_…), as target() tells them apart.
      const kind = /^[0-9]{1,15}$/u.test(orderId) ? 'order' : 'payment';
      const row = await decisions.findOrderDecision(db, `${kind}:${orderId}`);
      if (!row) return null;
      return {
        orderId: row.order_id,
        kind: row.kind as OrderDecisionView['kind'],
        action: row.action as MerchantAction,
        triggeredBy: row.triggered_by,
        comments: row.comments,
        decidedAt: Number(row.decided_at),
      };
    },

    async decideOrder(orderId, decision) {
      const { triggeredBy, comments } = checkStaffDecision(decision);
      const { kind, cancelled, siteId } = await target(orderId);
      const ref = `${kind === 'SLEEVE_ORDER' ? 'order' : 'payment'}:${orderId}`;
      if (await decisions.findOrderDecision(db, ref)) throw alreadyDecided('This order');
      if (kind === 'SLEEVE_ORDER' && decision.action === 'RELEASE' && cancelled) {
        throw new DomainError('validation_failed', 'A cancelled order cannot be released.', { field: 'action' });
      }
      const view: OrderDecisionView = { orderId, kind, action: decision.action, triggeredBy, comments, decidedAt: clock.now() };
      /** The decision and its notification, written in the caller's transaction; returns what was queued. */
      const record = async (trx: Db): Promise<Queued> => {
        await decisions.insertOrderDecision(trx, {
          ref,
          kind,
          order_id: orderId,
          action: view.action,
          triggered_by: triggeredBy,
          comments,
          decided_at: view.decidedAt,
        });
        const body: OrderStatusUpdateBody = {
          timestamp: epochSeconds(view.decidedAt),
          type: 'ORDER_STATUS_UPDATE',
          orderId,
          merchantAction: view.action,
          triggeredBy,
          ...(comments ? { agentComments: comments } : {}),
          linkToOrderInDashboard: dashboardLinks.order(publicUrl, orderId),
        };
        return queueNotification(trx, '/orderstatusupdatenotification', body, { subject: orderId, now: view.decidedAt, site: siteId });
      };
      try {
        let queued: Queued | undefined;
        if (kind === 'SLEEVE_ORDER' && decision.action === 'CANCEL') {
          // One transaction: a failure (or a crash) after the cancel can no longer keep it without its decision.
          await staff.cancel(orderId, comments ?? `Cancelled on review by ${triggeredBy}.`, async (trx) => {
            queued = await record(trx);
          });
        } else {
          queued = await transaction(db, record);
        }
        if (queued) announceQueued(bus, [queued]);
        return view;
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyDecided('This order');
        throw error;
      }
    },
  };
}
