/**
 * GraphQL types of the decision platform (docs/graphql.md#root-fields): merchants and their 3DS enrollments, accounts with their
 * decision history and the rules that fired, item listing requests, staff order decisions. Staff-only through
 * their root fields (schema/fields/platform.ts).
 */
import type { AccountRequestView } from '../../src/risk/account-record-service.ts';
import type { EnrollmentView, MerchantView } from '../../src/risk/merchant-service.ts';
import type { AccountView, OrderDecisionView } from '../../src/risk/review-service.ts';
import { builder } from '../builder.ts';
import {
  AccountDecisionEnum,
  EnrollmentStatusEnum,
  ItemListingReviewStatusEnum,
  MerchantActionEnum,
  OrderDecisionTargetEnum,
  RequestKindEnum,
  VendorDecisionEnum,
} from './platform-enums.ts';

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export const ThreeDsEnrollmentRef = builder.objectRef<EnrollmentView>('ThreeDsEnrollment').implement({
  description: "A 3DS recommendation enrollment request of a merchant (POST /merchants/{id}/3ds-recommendation) and how it ended.",
  fields: (t) => ({
    requestId: t.exposeID('requestId', { description: 'The requestId the enrollment answered: GET /merchants/{id}/3ds-recommendation/{requestId} reads it over REST.' }),
    status: t.field({ type: EnrollmentStatusEnum, description: 'PENDING until processed, then COMPLETED or FAILED (reason says why).', resolve: (e) => e.status }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it FAILED.' }),
    offerings: t.string({ description: 'The offerings as requested, as JSON.', resolve: (e) => JSON.stringify(e.offerings) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the enrollment request was received.', resolve: (e) => new Date(e.createdAt) }),
    completedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it became COMPLETED or FAILED; null while PENDING.', resolve: (e) => date(e.completedAt) }),
  }),
});

export const MerchantRef = builder.objectRef<MerchantView>('Merchant').implement({
  description: 'A merchant created by POST /merchants; its id is its own site id.',
  // `id` (its site id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    ownerSiteId: t.exposeString('ownerSiteId', { description: 'The site that created it.' }),
    merchantId: t.exposeString('merchantId', { description: "The merchant's own id in the provider's systems, as sent at creation (up to 50 characters); not unique, and not its site id (that is `id`)." }),
    name: t.exposeString('name', { description: 'The merchant name, unique within the creating site (ignoring case); up to 70 characters.' }),
    defaultMerchantCategoryCode: t.exposeString('defaultMerchantCategoryCode', { description: 'The four-digit merchant category code (ISO 18245), e.g. 5734.' }),
    accountCreationIp: t.string({ nullable: true, description: "merchantAccountCreation.ip: the IP address the merchant's account was registered from (up to 45 characters); null when not sent.", resolve: (m) => m.merchantAccountCreation?.ip ?? null }),
    accountCreationTimestamp: t.int({ nullable: true, description: 'Seconds since the epoch.', resolve: (m) => m.merchantAccountCreation?.timestamp ?? null }),
    createdAt: t.field({ type: 'DateTime', description: 'When POST /merchants created it here (not merchantAccountCreation.timestamp, which is accountCreationTimestamp).', resolve: (m) => new Date(m.createdAt) }),
    threeDsEnrollments: t.field({
      type: [ThreeDsEnrollmentRef],
      description: '3DS recommendation enrollment requests, oldest first.',
      resolve: (m, _args, { services }) => services.platform.enrollmentsOf(m.id),
    }),
  }),
});

const FiredRuleRef = builder.objectRef<AccountRequestView['firedRules'][number]>('FiredRule').implement({
  description: 'A rule of the engine that fired for a request, and why (README "Decision platform" lists them).',
  fields: (t) => ({
    id: t.exposeString('id', {
      description: 'The rule that fired, as ruleId has it.',
      deprecationReason:
        "Not an object's identity (one rule fires for many requests): caches that key on id would merge them. Read ruleId.",
    }),
    ruleId: t.string({ description: 'The rule that fired (README "Decision platform" lists them).', resolve: (r) => r.id }),
    reasonCode: t.exposeString('reasonCode', { description: "The code this rule adds to the request's reasonCodes, e.g. IP_VELOCITY or SANDBOX_EMAIL." }),
    outcome: t.exposeString('outcome', { description: 'DECLINE, VERIFICATION_REQUIRED, or SANDBOX for a sandbox address.' }),
    description: t.exposeString('description', { description: 'What the rule checks, in one sentence (the same for every request it fires on).' }),
    explanation: t.exposeString('explanation', { description: 'Why it fired for this request, with the values it saw: the sentence to show a reviewer.' }),
  }),
});

/** The fields of a decided request, shared by the account history and the item listing review. */
const DecidedRequestRef = builder.interfaceRef<AccountRequestView>('DecidedRequest').implement({
  description: 'A risk request (item listing or profile access), its decision, the rules that fired and any staff review.',
  fields: (t) => ({
    eventId: t.exposeID('eventId', { description: 'The path id of the request.' }),
    kind: t.field({ type: RequestKindEnum, description: 'Which operation it came through: item listing or profile access.', resolve: (r) => r.kind }),
    siteId: t.exposeString('siteId', { description: 'The site whose credentials sent it (site_…); its account and notifications are that site\'s.' }),
    accountId: t.exposeString('accountId', { description: "The site's own id for the account whose activity was decided (document 3's accountId)." }),
    eventTime: t.field({ type: 'DateTime', description: "When the activity happened, as the request's eventTime (13-digit epoch ms) said; velocity rules count by it.", resolve: (r) => new Date(r.eventTime) }),
    vendorDecision: t.field({ type: VendorDecisionEnum, description: 'The decision answered to the site; a staff review later does not change it (see reviewStatus).', resolve: (r) => r.vendorDecision }),
    reasonCodes: t.exposeStringList('reasonCodes', { description: 'The reason code of each rule that fired, in rule order (e.g. IP_VELOCITY); empty when none fired.' }),
    recommendations: t.exposeStringList('recommendations', { description: 'For VERIFICATION_REQUIRED, the ways the user may verify (e.g. SMS_VERIFICATION, ID_VERIFICATION): any one is enough. Empty otherwise.' }),
    correlationId: t.exposeString('correlationId', { description: 'The correlationId answered with the decision (corr_…), which the site sends back with the authentication result; the item listing update notification carries it too.' }),
    firedRules: t.field({ type: [FiredRuleRef], description: 'Every rule that fired and why, in rule order; empty for an approval.', resolve: (r) => r.firedRules }),
    reviewStatus: t.field({ type: ItemListingReviewStatusEnum, nullable: true, description: 'The staff review: AWAITING_REVIEW when decided NOT_REVIEWED, then RELEASED or CANCELLED; null when never queued nor decided by staff.', resolve: (r) => r.reviewStatus as 'AWAITING_REVIEW' | null }),
    reviewedBy: t.exposeString('reviewedBy', { nullable: true, description: 'The staff member who released or cancelled it (decideItemListing triggeredBy, an email); null until then.' }),
    reviewComments: t.exposeString('reviewComments', { nullable: true, description: "The staff comments given with the decision (sent as agentComments); null when none or not yet decided." }),
    reviewedAt: t.field({ type: 'DateTime', nullable: true, description: 'When staff released or cancelled it; null until then.', resolve: (r) => date(r.reviewedAt) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the platform received and decided it (eventTime is when it happened).', resolve: (r) => new Date(r.createdAt) }),
  }),
});

export const AccountRequestRef = builder.objectRef<AccountRequestView>('AccountRequest').implement({
  description: 'An item listing or profile access request and its decision.',
  interfaces: [DecidedRequestRef],
});

export const ItemListingRequestRef = builder.objectRef<AccountRequestView>('ItemListingRequest').implement({
  description: 'A seller item listing request, its decision and its staff review.',
  interfaces: [DecidedRequestRef],
});

export const AccountRef = builder.objectRef<AccountView>('Account').implement({
  description: "One site's account: an account id is kept per site (docs/platform.md#accounts-per-site).",
  fields: (t) => ({
    siteId: t.exposeString('siteId', { description: 'The site whose requests decide this account.' }),
    accountId: t.exposeID('accountId', { description: "The site's own id for the account (document 3's accountId); only unique together with siteId." }),
    status: t.field({ type: AccountDecisionEnum, description: 'Its current status, set by the latest request decision that changed it or by staff reviewAccount.', resolve: (a) => a.status }),
    reasons: t.exposeStringList('reasons', { description: 'Why it has this status: the reason codes of the decision that set it, or the reasons staff gave; may be empty.' }),
    recommendations: t.exposeStringList('recommendations', { description: 'Verification the account may use to clear VERIFICATION_REQUIRED (e.g. EMAIL_VERIFICATION); only one is needed. Often empty.' }),
    updatedAt: t.field({ type: 'DateTime', description: 'When its status (or, by a staff review, its reasons) last changed.', resolve: (a) => new Date(a.updatedAt) }),
    decisions: t.field({ type: [AccountRequestRef], description: 'The latest 200 requests decided for the account, oldest event first.', resolve: (a) => a.decisions }),
  }),
});

export const OrderDecisionRef = builder.objectRef<OrderDecisionView>('OrderDecision').implement({
  // `id` (from the orderId: one decision per order or payment) comes with the Node interface: schema/types/nodes.ts.
  description: 'A staff RELEASE or CANCEL of a sleeve order or a payment (decideOrder): one per order or payment, announced by the order status update notification.',
  fields: (t) => ({
    orderId: t.exposeID('orderId', { description: "The id decideOrder was given, as the notification's orderId: a sleeve order number or a payment id (pay_…)." }),
    target: t.field({ type: OrderDecisionTargetEnum, description: 'Whether orderId named a sleeve order or a payment.', resolve: (d) => d.kind }),
    action: t.field({ type: MerchantActionEnum, description: 'What staff decided (the notification\'s merchantAction).', resolve: (d) => d.action }),
    triggeredBy: t.exposeString('triggeredBy', { description: 'Email of the staff member who decided (at most 75 characters).' }),
    comments: t.exposeString('comments', { nullable: true, description: 'Why, as sent in agentComments (at most 255 characters); null when none was given.' }),
    decidedAt: t.field({ type: 'DateTime', description: 'When the decision was made (the notification\'s timestamp).', resolve: (d) => new Date(d.decidedAt) }),
  }),
});
