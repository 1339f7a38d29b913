/**
 * GraphQL types of the decision platform (docs/graphql.md#root-fields): merchants and their 3DS enrollments, accounts with their
 * decision history and the rules that fired, item listing requests, staff order decisions. Staff-only through
 * their root fields (schema/fields/platform.ts).
 */
import { ACCOUNT_DECISIONS } from '../../src/notifications/bodies.ts';
import { VENDOR_DECISIONS } from '../../src/kernel/vendor-decisions.ts';
import type { AccountRequestView } from '../../src/risk/account-record-service.ts';
import type { EnrollmentView, MerchantView } from '../../src/risk/merchant-service.ts';
import type { AccountView, OrderDecisionView } from '../../src/risk/review-service.ts';
import { builder } from '../builder.ts';

const same = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, { value: v }])) as Record<T, { value: T }>;

export const AccountDecisionEnum = builder.enumType('AccountDecision', {
  description: "An account's status: document 2's account update vendorDecision values.",
  values: same(ACCOUNT_DECISIONS),
});

export const MerchantActionEnum = builder.enumType('MerchantAction', { values: same(['RELEASE', 'CANCEL'] as const) });

export const VendorDecisionEnum = builder.enumType('VendorDecision', {
  description: 'The decision of an item listing or profile access request (docs/platform.md#decisions).',
  values: same(VENDOR_DECISIONS),
});

export const ItemListingReviewStatusEnum = builder.enumType('ItemListingReviewStatus', {
  description: 'AWAITING_REVIEW: decided NOT_REVIEWED and queued for staff; then RELEASED or CANCELLED by decideItemListing.',
  values: same(['AWAITING_REVIEW', 'RELEASED', 'CANCELLED'] as const),
});

const RequestKindEnum = builder.enumType('AccountRequestKind', {
  values: { ITEM_LISTING: { value: 'item-listing' as const }, PROFILE_ACCESS: { value: 'profile-access' as const } },
});

const EnrollmentStatusEnum = builder.enumType('ThreeDsEnrollmentStatus', { values: same(['PENDING', 'COMPLETED', 'FAILED'] as const) });

const OrderDecisionTargetEnum = builder.enumType('OrderDecisionTarget', { values: same(['SLEEVE_ORDER', 'PAYMENT'] as const) });

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export const ThreeDsEnrollmentRef = builder.objectRef<EnrollmentView>('ThreeDsEnrollment').implement({
  fields: (t) => ({
    requestId: t.exposeID('requestId'),
    status: t.field({ type: EnrollmentStatusEnum, resolve: (e) => e.status }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it FAILED.' }),
    offerings: t.string({ description: 'The offerings as requested, as JSON.', resolve: (e) => JSON.stringify(e.offerings) }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => new Date(e.createdAt) }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => date(e.completedAt) }),
  }),
});

export const MerchantRef = builder.objectRef<MerchantView>('Merchant').implement({
  description: 'A merchant created by POST /merchants; its id is its own site id.',
  // `id` (its site id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    ownerSiteId: t.exposeString('ownerSiteId', { description: 'The site that created it.' }),
    merchantId: t.exposeString('merchantId'),
    name: t.exposeString('name'),
    defaultMerchantCategoryCode: t.exposeString('defaultMerchantCategoryCode'),
    accountCreationIp: t.string({ nullable: true, resolve: (m) => m.merchantAccountCreation?.ip ?? null }),
    accountCreationTimestamp: t.int({ nullable: true, description: 'Seconds since the epoch.', resolve: (m) => m.merchantAccountCreation?.timestamp ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => new Date(m.createdAt) }),
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
      deprecationReason:
        "Not an object's identity (one rule fires for many requests): caches that key on id would merge them. Read ruleId.",
    }),
    ruleId: t.string({ description: 'The rule that fired (README "Decision platform" lists them).', resolve: (r) => r.id }),
    reasonCode: t.exposeString('reasonCode'),
    outcome: t.exposeString('outcome', { description: 'DECLINE, VERIFICATION_REQUIRED, or SANDBOX for a sandbox address.' }),
    description: t.exposeString('description'),
    explanation: t.exposeString('explanation'),
  }),
});

/** The fields of a decided request, shared by the account history and the item listing review. */
const DecidedRequestRef = builder.interfaceRef<AccountRequestView>('DecidedRequest').implement({
  description: 'A risk request (item listing or profile access), its decision, the rules that fired and any staff review.',
  fields: (t) => ({
    eventId: t.exposeID('eventId', { description: 'The path id of the request.' }),
    kind: t.field({ type: RequestKindEnum, resolve: (r) => r.kind }),
    siteId: t.exposeString('siteId'),
    accountId: t.exposeString('accountId'),
    eventTime: t.field({ type: 'DateTime', resolve: (r) => new Date(r.eventTime) }),
    vendorDecision: t.field({ type: VendorDecisionEnum, resolve: (r) => r.vendorDecision }),
    reasonCodes: t.exposeStringList('reasonCodes'),
    recommendations: t.exposeStringList('recommendations'),
    correlationId: t.exposeString('correlationId'),
    firedRules: t.field({ type: [FiredRuleRef], resolve: (r) => r.firedRules }),
    reviewStatus: t.field({ type: ItemListingReviewStatusEnum, nullable: true, resolve: (r) => r.reviewStatus as 'AWAITING_REVIEW' | null }),
    reviewedBy: t.exposeString('reviewedBy', { nullable: true }),
    reviewComments: t.exposeString('reviewComments', { nullable: true }),
    reviewedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => date(r.reviewedAt) }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => new Date(r.createdAt) }),
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
    accountId: t.exposeID('accountId'),
    status: t.field({ type: AccountDecisionEnum, resolve: (a) => a.status }),
    reasons: t.exposeStringList('reasons'),
    recommendations: t.exposeStringList('recommendations'),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => new Date(a.updatedAt) }),
    decisions: t.field({ type: [AccountRequestRef], description: 'The latest 200 requests decided for the account, oldest event first.', resolve: (a) => a.decisions }),
  }),
});

export const OrderDecisionRef = builder.objectRef<OrderDecisionView>('OrderDecision').implement({
  // `id` (from the orderId: one decision per order or payment) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    orderId: t.exposeID('orderId'),
    target: t.field({ type: OrderDecisionTargetEnum, resolve: (d) => d.kind }),
    action: t.field({ type: MerchantActionEnum, resolve: (d) => d.action }),
    triggeredBy: t.exposeString('triggeredBy'),
    comments: t.exposeString('comments', { nullable: true }),
    decidedAt: t.field({ type: 'DateTime', resolve: (d) => new Date(d.decidedAt) }),
  }),
});
