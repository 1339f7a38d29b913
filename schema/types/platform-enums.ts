/**
 * The enums of the decision platform's GraphQL types, each value with what it means (GraphiQL and codegen show
 * them). Split from schema/types/platform.ts, which keeps the object types, so that file stays a readable size.
 * The values are document 2's and document 3's words (docs/platform.md#decisions, docs/platform.md#accounts).
 */
import { ACCOUNT_DECISIONS } from '../../src/notifications/bodies.ts';
import { VENDOR_DECISIONS } from '../../src/kernel/vendor-decisions.ts';
import { builder, describedValues } from '../builder.ts';


const ACCOUNT_DECISION_MEANINGS: Record<(typeof ACCOUNT_DECISIONS)[number], string> = {
  ACTIVATE: 'The account may act normally: its latest request was approved (APPROVE), or staff activated it.',
  DEACTIVATE: 'The account is blocked: its latest request was declined (DECLINE), or staff deactivated it.',
  RESTRICT_POLICY: "The merchant should apply its restrictive policy to the account. Set only by staff (reviewAccount), never by the engine.",
  ENABLE_POLICY: "The merchant may lift the restrictive policy and apply its normal one. Set only by staff (reviewAccount), never by the engine.",
  VERIFICATION_REQUIRED: 'The account must verify itself first: its recommendations name the ways (SMS, email, ID ...); any one of them is enough.',
  NOT_REVIEWED: 'Not decided: the latest request was queued for staff review (NOT_REVIEWED), or staff set it so.',
};

export const AccountDecisionEnum = builder.enumType('AccountDecision', {
  description: "An account's status: document 2's account update vendorDecision values.",
  values: describedValues(ACCOUNT_DECISIONS, ACCOUNT_DECISION_MEANINGS),
});

export const MerchantActionEnum = builder.enumType('MerchantAction', {
  description: "A staff disposition of an order, payment or item listing: document 2's merchantAction, sent in the notification it causes.",
  values: describedValues(['RELEASE', 'CANCEL'] as const, {
    RELEASE: 'Let it go ahead (an item listing becomes RELEASED).',
    CANCEL: 'Stop it: a sleeve order is cancelled (and refunded if paid); an item listing becomes CANCELLED; a payment is only recorded and notified, not refunded (refundPayment does that).',
  }),
});

export const VendorDecisionEnum = builder.enumType('VendorDecision', {
  description: 'The decision of an item listing or profile access request (docs/platform.md#decisions).',
  values: describedValues(VENDOR_DECISIONS, {
    APPROVE: 'No rule fired (or approve@vendor.test): go ahead. The account becomes ACTIVATE.',
    DECLINE: 'A declining rule fired (or decline@vendor.test): refuse the action. The account becomes DEACTIVATE.',
    VERIFICATION_REQUIRED: 'Ask the user to verify first, in one of the ways recommendations lists. The account becomes VERIFICATION_REQUIRED.',
    NOT_REVIEWED: 'Not decided (review@vendor.test): queued for staff review (reviewStatus AWAITING_REVIEW). The account becomes NOT_REVIEWED.',
  }),
});

export const ItemListingReviewStatusEnum = builder.enumType('ItemListingReviewStatus', {
  description: 'AWAITING_REVIEW: decided NOT_REVIEWED and queued for staff; then RELEASED or CANCELLED by decideItemListing.',
  values: describedValues(['AWAITING_REVIEW', 'RELEASED', 'CANCELLED'] as const, {
    AWAITING_REVIEW: 'Decided NOT_REVIEWED and waiting for staff: decideItemListing releases or cancels it.',
    RELEASED: 'Staff released it (decideItemListing with RELEASE); the site was sent the item listing request update.',
    CANCELLED: 'Staff cancelled it (decideItemListing with CANCEL); the site was sent the item listing request update.',
  }),
});

export const RequestKindEnum = builder.enumType('AccountRequestKind', {
  description: 'Which of document 3\'s two risk operations a request came through.',
  values: {
    ITEM_LISTING: { value: 'item-listing' as const, description: 'A seller item listing: POST /v2/accounts/item-listing/{id}.' },
    PROFILE_ACCESS: { value: 'profile-access' as const, description: 'An attempt to access or edit a customer profile: POST /v2/accounts/profile-access/{id}.' },
  },
});

export const EnrollmentStatusEnum = builder.enumType('ThreeDsEnrollmentStatus', {
  description: "Where a 3DS recommendation enrollment request is: PENDING, then COMPLETED or FAILED (GET /merchants/{id}/3ds-recommendation/{requestId} says the same).",
  values: describedValues(['PENDING', 'COMPLETED', 'FAILED'] as const, {
    PENDING: 'Accepted and being processed (about 5 seconds); completedAt is null until it ends.',
    COMPLETED: 'The merchant is enrolled in the offerings requested.',
    FAILED: 'Not enrolled: reason says what to fix in the offerings before enrolling again.',
  }),
});

export const OrderDecisionTargetEnum = builder.enumType('OrderDecisionTarget', {
  description: "What decideOrder's orderId named: a sleeve order or a payment of POST /api/payments.",
  values: describedValues(['SLEEVE_ORDER', 'PAYMENT'] as const, {
    SLEEVE_ORDER: 'A sleeve order, by its order number (digits).',
    PAYMENT: 'A payment, by its id (pay_…).',
  }),
});
