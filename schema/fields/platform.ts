/**
 * Staff root fields of the decision platform (docs/graphql.md#root-fields): merchant, account, accounts, itemListingRequests,
 * reviewAccount, decideItemListing, decideOrder. Thin: args → services.platform → view; a DomainError becomes
 * `extensions.code` (schema/errors.ts).
 */
import { builder } from '../builder.ts';
import { AccountRef, ItemListingRequestRef, MerchantRef, OrderDecisionRef } from '../types/platform.ts';
import { AccountDecisionEnum, ItemListingReviewStatusEnum, MerchantActionEnum } from '../types/platform-enums.ts';

const staffOnly = { staff: true } as const;

builder.queryField('merchant', (t) =>
  t.field({
    type: MerchantRef,
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff: a merchant by its id (its site id); null when unknown.',
    args: { id: t.arg.id({ required: true, description: "The merchant's site id (site_…), the `id` POST /merchants answered; also its global id." }) },
    resolve: (_root, { id }, { services }) => services.platform.findMerchant(String(id)),
  }),
);

/** An account id is one site's (docs/platform.md#accounts-per-site): the site is needed once several sites hold the id. */
const siteIdArg = builder.args((t) => ({
  siteId: t.string({ description: 'The site the account belongs to; needed only when more than one site holds this account id.' }),
}));

builder.queryField('account', (t) =>
  t.field({
    type: AccountRef,
    nullable: true,
    authScopes: staffOnly,
    description:
      "Staff: a site's account, its status and its decision history with the rules that fired; null when unknown. Without siteId, VALIDATION_FAILED (field siteId) when several sites hold the id.",
    args: { accountId: t.arg.id({ required: true, description: "The site's own id for the account (document 3's accountId)." }), ...siteIdArg },
    resolve: (_root, { accountId, siteId }, { services }) => services.platform.account({ accountId: String(accountId), siteId: siteId ?? null }),
  }),
);

builder.queryField('accounts', (t) =>
  t.field({
    type: [AccountRef],
    authScopes: staffOnly,
    description: 'Staff: the account of every site that holds this account id, by site id; empty when none does.',
    args: { accountId: t.arg.id({ required: true, description: "The account id to look for in every site (document 3's accountId)." }) },
    resolve: (_root, { accountId }, { services }) => services.platform.accounts(String(accountId)),
  }),
);

builder.queryField('itemListingRequests', (t) =>
  t.field({
    type: [ItemListingRequestRef],
    authScopes: staffOnly,
    description: 'Staff: item listing requests in a review status, oldest first (by default those awaiting review). first: 50 by default, 200 at most.',
    args: {
      status: t.arg({ type: ItemListingReviewStatusEnum, defaultValue: 'AWAITING_REVIEW', description: 'Only requests in this review status: AWAITING_REVIEW (the default) for the queue, RELEASED or CANCELLED for those decided.' }),
      first: t.arg.int({ defaultValue: 50, description: 'How many to return, oldest first: 50 by default; below 1 counts as 1, above 200 as 200.' }),
    },
    resolve: (_root, { status, first }, { services }) => services.platform.itemListingRequests(status ?? 'AWAITING_REVIEW', first ?? 50),
  }),
);

builder.mutationField('reviewAccount', (t) =>
  t.field({
    type: AccountRef,
    authScopes: staffOnly,
    description:
      "Staff: set a site's account's status; an account update notification is sent when the status changes. Without siteId, VALIDATION_FAILED (field siteId) when several sites hold the id.",
    args: {
      accountId: t.arg.id({ required: true, description: "The site's own id for the account (document 3's accountId); NOT_FOUND when no site holds it." }),
      ...siteIdArg,
      decision: t.arg({ type: AccountDecisionEnum, required: true, description: "The account's new status: any of document 2's six values, sent as vendorDecision." }),
      reasons: t.arg.stringList({ description: "Why, as short labels like reason codes (at most 20, each 1 to 100 characters); they replace the account's reasons. Omitted: none." }),
      recommendations: t.arg.stringList({ description: "Verification the account may use (e.g. ID_VERIFICATION; at most 20, each 1 to 100 characters); they replace the account's. Omitted: none." }),
    },
    resolve: (_root, args, { services }) =>
      services.platform.reviewAccount(
        { accountId: String(args.accountId), siteId: args.siteId ?? null },
        args.decision,
        args.reasons ?? [],
        args.recommendations ?? [],
      ),
  }),
);

/** The arguments of a staff RELEASE/CANCEL (document 2 §8 limits, checked in src/risk/review-rules.ts). */
const decisionArgs = builder.args((t) => ({
  action: t.field({ type: MerchantActionEnum, required: true, description: "RELEASE or CANCEL: sent as the notification's merchantAction." }),
  triggeredBy: t.string({ required: true, description: 'Email of the staff member deciding; at most 75 characters.' }),
  comments: t.string({ description: 'Sent as agentComments; at most 255 characters.' }),
}));

builder.mutationField('decideItemListing', (t) =>
  t.field({
    type: ItemListingRequestRef,
    authScopes: staffOnly,
    description:
      "Staff: RELEASE or CANCEL an item listing request (by its event id, the merchant's own); sends the item listing request update notification to its site. Without siteId, VALIDATION_FAILED (field siteId) when several sites have a listing of that event id.",
    args: { eventId: t.arg.id({ required: true, description: 'The path id the site sent the listing under (POST /v2/accounts/item-listing/{id}), as the request\'s eventId.' }), siteId: t.arg.string({ description: 'The site of the listing; needed only when more than one site has a listing of this event id.' }), ...decisionArgs },
    resolve: (_root, { eventId, siteId, action, triggeredBy, comments }, { services }) =>
      services.platform.decideItemListing(String(eventId), siteId ?? null, { action, triggeredBy, comments: comments ?? null }),
  }),
);

builder.mutationField('decideOrder', (t) =>
  t.field({
    type: OrderDecisionRef,
    authScopes: staffOnly,
    description:
      'Staff: RELEASE or CANCEL a sleeve order (by order number; CANCEL cancels and refunds it) or a payment (by id), once; sends the order status update notification.',
    args: { orderId: t.arg.id({ required: true, description: 'A sleeve order number (digits) or a payment id (pay_…); NOT_FOUND when neither exists, DUPLICATE when already decided.' }), ...decisionArgs },
    resolve: (_root, { orderId, action, triggeredBy, comments }, { services }) =>
      services.platform.decideOrder(String(orderId), { action, triggeredBy, comments: comments ?? null }),
  }),
);
