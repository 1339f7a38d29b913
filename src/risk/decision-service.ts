/**
 * Item-listing and profile-access decisions (document 3 §4; docs/platform.md#decisions). One transaction reads the
 * account's history up to the request's eventTime, runs the rules engine (pure, src/risk/rules), stores the request
 * with the rules that fired, moves the account's status and, when it changed, queues the account update
 * notification. The account and its history are those of the site the credentials authenticated, never another
 * site's (docs/platform.md#accounts-per-site). The outbox is announced after commit. A repeated event id from the same
 * site replays the stored decision: the unique index refuses its insert (rolling back everything else), so a new
 * request costs no extra lookup. Like an Idempotency-Key on /api/payments, the id stands for one request: sent again
 * with another body it is refused 400, never answered with a decision about something else.
 */
import { parseAccountRequest, type RequestKind } from './account-requests.ts';
import { DomainError } from '../kernel/errors.ts';
import { VELOCITY_WINDOW_MS } from './rules/behaviour-rules.ts';
import { decide } from './rules/engine.ts';
import { requestFacts } from './rules/facts.ts';
import type { VendorDecision } from '../kernel/vendor-decisions.ts';
import { isUniqueViolation } from '../db/database.ts';
import * as accounts from './account-repository.ts';
import { announceQueued } from '../notifications/outbox-service.ts';
import { randomId, timeOrderedId } from '../kernel/tokens.ts';
import { scrubStrings } from '../kernel/card-number.ts';
import { ACCOUNT_STATUS_OF, applyAccountState } from './account-record-service.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { Site } from '../sites/site-service.ts';
import { transaction } from '../db/transaction.ts';
import { canonicalJson } from '../kernel/canonical-json.ts';

/** docs/platform.md#decisions: the decision body of both operations. */
export interface DecisionResponse {
  status: 'success';
  vendorDecision: VendorDecision;
  reasonCodes: string[];
  recommendations: string[];
  correlationId: string;
}

export interface DecisionService {
  decide(site: Site, kind: RequestKind, eventId: string, body: unknown): Promise<DecisionResponse>;
}

export const EVENT_ID_MAX = 200;

export function createDecisionService({ database, clock, bus, publicUrl }: ServiceDeps): DecisionService {
  const { db } = database;

  /** The stored decision of `eventId`, when the request stored under it is `audited` (its stored form). */
  async function replay(site: Site, kind: RequestKind, eventId: string, audited: string): Promise<DecisionResponse | null> {
    const row = await accounts.findRequestByEvent(db, site.siteId, kind, eventId);
    if (!row) return null;
    if (canonicalJson(JSON.parse(row.request)) !== canonicalJson(JSON.parse(audited))) {
      const message = 'This event id was already decided for a different request. Send a new event with a new event id.';
      throw new DomainError('bad_request', message, { field: 'id', errors: [{ field: 'id', message }] });
    }
    return responseOf(row);
  }

  return {
    async decide(site, kind, eventId, body) {
      if (eventId.length > EVENT_ID_MAX) {
        const message = `The path id must be at most ${EVENT_ID_MAX} characters.`;
        throw new DomainError('bad_request', message, { field: 'id', errors: [{ field: 'id', message }] });
      }
      const request = parseAccountRequest(kind, body);
      const ip = requestFacts(request).customerIp;
      // The audit copy, with any card number a client typed into a free-text field redacted (docs/platform.md#accounts).
      const audited = JSON.stringify(scrubStrings(request.body));
      try {
        const { row, queued } = await transaction(db, async (trx) => {
          const now = clock.now();
          // The authenticated site's history only: accounts and velocity are per site (docs/platform.md#accounts-per-site).
          const window = { from: request.eventTime - VELOCITY_WINDOW_MS, until: request.eventTime };
          const history = await accounts.requestHistory(trx, site.siteId, request.accountId, ip, window.from, window.until);
          const decision = decide(request, history);
          const row: accounts.AccountRequestRow = {
            id: timeOrderedId('req_'),
            site_id: site.siteId,
            kind,
            event_id: eventId,
            account_id: request.accountId,
            event_time: request.eventTime,
            customer_ip: ip,
            request: audited,
            vendor_decision: decision.vendorDecision,
            reason_codes: JSON.stringify(decision.reasonCodes),
            recommendations: JSON.stringify(decision.recommendations),
            fired_rules: JSON.stringify(decision.firedRules),
            correlation_id: randomId('corr_'),
            // docs/platform.md#sandbox-addresses: NOT_REVIEWED is queued for staff review.
            review_status: decision.vendorDecision === 'NOT_REVIEWED' ? 'AWAITING_REVIEW' : null,
            reviewed_by: null,
            review_comments: null,
            reviewed_at: null,
            created_at: now,
          };
          await accounts.insertAccountRequest(trx, row);
          const queued = await applyAccountState(
            trx,
            {
              siteId: site.siteId,
              accountId: request.accountId,
              status: ACCOUNT_STATUS_OF[decision.vendorDecision],
              reasons: decision.reasonCodes,
              recommendations: decision.recommendations,
              updatedAt: now,
            },
            publicUrl,
          );
          return { row, queued };
        });
        if (queued) announceQueued(bus, [queued]);
        return responseOf(row);
      } catch (error) {
        // The event id was decided before (or concurrently): the first decision is the answer.
        if (isUniqueViolation(error, { index: 'account_requests_event', column: 'account_requests.event_id' })) {
          const first = await replay(site, kind, eventId, audited);
          if (first) return first;
        }
        throw error;
      }
    },
  };
}

function responseOf(row: accounts.AccountRequestRow): DecisionResponse {
  return {
    status: 'success',
    vendorDecision: row.vendor_decision as VendorDecision,
    reasonCodes: JSON.parse(row.reason_codes) as string[],
    recommendations: JSON.parse(row.recommendations) as string[],
    correlationId: row.correlation_id,
  };
}
