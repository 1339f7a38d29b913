/**
 * The notifications side of the schema (docs/notifications.md#staff-view-and-redelivery): deliveries with every attempt, and claims with the
 * fields of document 2's evidence request. Staff only; the root fields are in schema/fields/notifications.ts.
 */
import type { Claim } from '../../src/disputes/claim-mapping.ts';
import type { Notification, NotificationAttempt, NotificationPage } from '../../src/notifications/notification-service.ts';
import type { ClaimPage } from '../../src/disputes/claim-service.ts';
import { hoursLeftUntil } from '../../src/notifications/send-time.ts';
import { CLAIM_TYPES, REASON_CATEGORIES } from '../../src/notifications/bodies.ts';
import { TIME_NOTES } from '../../src/notifications/endpoint-view.ts';
import type { NotificationPath } from '../../src/notifications/notification-paths.ts';
import { builder } from '../builder.ts';
import { PageInfoRef, relayPageInfo } from './staff.ts';

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export const NotificationStatusEnum = builder.enumType('NotificationStatus', {
  description:
    'PENDING: queued or waiting for a retry; DELIVERED: the merchant answered 2xx; FAILED: the retry schedule ran out; DROPPED: not sent, because when it was due it had nothing left to say (lastError says why).',
  values: { PENDING: { value: 'PENDING' }, DELIVERED: { value: 'DELIVERED' }, FAILED: { value: 'FAILED' }, DROPPED: { value: 'DROPPED' } } as const,
});

/** Document 2 §4: one value per path at MERCHANT_ENDPOINT. */
const NOTIFICATION_TYPES: Record<string, NotificationPath> = {
  TOKEN_UPDATED: '/token-updated',
  REQUEST_FOR_EVIDENCE: '/requestforevidencenotification',
  ACCOUNT_UPDATE: '/accountupdatenotification',
  ORDER_STATUS_UPDATE: '/orderstatusupdatenotification',
  ITEM_LISTING_REQUEST_UPDATE: '/itemlistingrequestupdatenotification',
};

export const NotificationTypeEnum = builder.enumType('NotificationType', {
  description: 'Which of the five notifications of document 2 (by its path).',
  values: Object.fromEntries(Object.entries(NOTIFICATION_TYPES).map(([name, path]) => [name, { value: path, description: path }])) as Record<
    string,
    { value: NotificationPath }
  >,
});

const NotificationAttemptRef = builder.objectRef<NotificationAttempt>('NotificationAttempt').implement({
  description: 'One POST to the merchant endpoint.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first; redeliveries keep counting.' }),
    startedAt: t.field({ type: 'DateTime', resolve: (a) => new Date(a.startedAt) }),
    durationMs: t.exposeInt('durationMs'),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The merchant's HTTP status; null when no answer came." }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 500 characters of the answer.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (timeout, refused connection).' }),
  }),
});

export const NotificationRef = builder.objectRef<Notification>('Notification').implement({
  description: 'A document 2 notification in the outbox, with every delivery attempt.',
  // `id` (its own msg_… id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    type: t.field({ type: NotificationTypeEnum, resolve: (n) => n.path }),
    path: t.exposeString('path'),
    body: t.exposeString('body', {
      description: 'The JSON body as queued, with vault tokens masked (tok_…abcd); fields computed at send time are added when it is sent.',
    }),
    status: t.field({ type: NotificationStatusEnum, resolve: (n) => n.status }),
    subject: t.exposeString('subject', { nullable: true, description: 'What it is about: a token (masked), account, order or claim id.' }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: TIME_NOTES.nextAttemptAt, resolve: (n) => date(n.nextAttemptAt) }),
    createdAt: t.field({ type: 'DateTime', resolve: (n) => new Date(n.createdAt) }),
    deliveredAt: t.field({ type: 'DateTime', nullable: true, description: TIME_NOTES.deliveredAt, resolve: (n) => date(n.deliveredAt) }),
    lastError: t.exposeString('lastError', { nullable: true }),
    attempts: t.field({ type: [NotificationAttemptRef], resolve: (n) => n.attempts }),
  }),
});

const NotificationEdgeRef = builder.objectRef<NotificationPage['edges'][number]>('NotificationEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: NotificationRef, resolve: (e) => e.node }) }),
});

export const NotificationConnectionRef = builder.objectRef<NotificationPage>('NotificationConnection').implement({
  description: 'Notifications, oldest first.',
  fields: (t) => ({
    edges: t.field({ type: [NotificationEdgeRef], resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, resolve: relayPageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'Notifications matching the filters, on every page.' }),
  }),
});

const enumOf = <T extends string>(name: string, values: readonly T[], description: string) =>
  builder.enumType(name, { description, values: Object.fromEntries(values.map((v) => [v, { value: v }])) as Record<T, { value: T }> });

export const ClaimTypeEnum = enumOf('ClaimType', CLAIM_TYPES, 'Document 2 claimType.');
export const ReasonCategoryEnum = enumOf('ReasonCategory', REASON_CATEGORIES, 'Document 2 reasonCategory.');
const ClaimStatusEnum = enumOf('ClaimStatus', ['OPEN', 'EVIDENCE_SUBMITTED', 'EXPIRED'] as const, 'OPEN until every requested type is satisfied (EVIDENCE_SUBMITTED) or the due date passes (EXPIRED).');

export const ClaimRef = builder.objectRef<Claim>('Claim').implement({
  description: 'A claim that requires evidence (document 2 "Request for evidence").',
  fields: (t) => ({
    claimId: t.field({ type: 'ID', description: 'int64, as in the notifications.', resolve: (c) => String(c.claimId) }),
    siteId: t.exposeString('siteId', { description: 'The platform site whose credentials submit its evidence.' }),
    orderId: t.exposeString('orderId', { description: "A sleeve order's number, or the orderId of the payment the claim was opened on (also when openClaim named the payment by its id); the evidence request's orderId." }),
    claimType: t.field({ type: ClaimTypeEnum, resolve: (c) => c.claimType }),
    reasonCode: t.exposeString('reasonCode', { nullable: true }),
    reasonCategory: t.field({ type: ReasonCategoryEnum, nullable: true, resolve: (c) => c.reasonCategory }),
    cardType: t.exposeString('cardType', { nullable: true }),
    amount: t.exposeFloat('amount', { description: 'In the claim currency (amountClaimCurrency).' }),
    currency: t.exposeString('currency'),
    processorName: t.exposeString('processorName', { nullable: true }),
    processorCaseNumber: t.exposeString('processorCaseNumber', { nullable: true }),
    processorChargeId: t.exposeString('processorChargeId', { nullable: true }),
    issueDate: t.exposeString('issueDate', { description: 'YYYY-MM-DD.' }),
    dueDate: t.exposeString('dueDate', { description: 'YYYY-MM-DD; evidence counts until the end of this day (UTC).' }),
    hoursLeftUntilDisputed: t.int({ resolve: (c, _args, ctx) => hoursLeftUntil(c.dueAt, ctx.now()) }),
    status: t.field({ type: ClaimStatusEnum, resolve: (c) => c.status }),
    requestedEvidenceTypes: t.exposeStringList('requestedEvidenceTypes'),
    satisfiedEvidenceTypes: t.exposeStringList('satisfiedEvidenceTypes', { description: 'Given by file or data points; never requested again.' }),
    missingEvidenceTypes: t.exposeStringList('missingEvidenceTypes', { description: 'What the next reminder lists.' }),
    nextReminderAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => date(c.nextReminderAt) }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => new Date(c.createdAt) }),
  }),
});

const ClaimEdgeRef = builder.objectRef<ClaimPage['edges'][number]>('ClaimEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: ClaimRef, resolve: (e) => e.node }) }),
});

export const ClaimConnectionRef = builder.objectRef<ClaimPage>('ClaimConnection').implement({
  description: 'Claims by claim id, oldest first.',
  fields: (t) => ({
    edges: t.field({ type: [ClaimEdgeRef], resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, resolve: relayPageInfo }),
    totalCount: t.exposeInt('totalCount'),
  }),
});

export const OpenClaimInputRef = builder.inputType('OpenClaimInput', {
  description: 'The fields of document 2 evidence request; opening a claim sends /requestforevidencenotification.',
  fields: (t) => ({
    orderId: t.id({ required: true, description: "A sleeve order number, a payment id, or the merchant's orderId of a payment. A payment named by its id is kept as its orderId." }),
    claimType: t.field({ type: ClaimTypeEnum, required: true }),
    reasonCode: t.string(),
    reasonCategory: t.field({ type: ReasonCategoryEnum }),
    cardType: t.string(),
    amount: t.float({ required: true, description: 'In the claim currency, e.g. 45.5.' }),
    currency: t.string({ required: true, description: 'ISO 4217, e.g. USD.' }),
    processorName: t.string(),
    processorCaseNumber: t.string(),
    processorChargeId: t.string(),
    issueDate: t.string({ description: 'YYYY-MM-DD; today when omitted.' }),
    dueDate: t.string({ required: true, description: 'YYYY-MM-DD, today or later.' }),
    requestedEvidenceTypes: t.stringList({ required: true, description: 'Canonical evidence types, e.g. PROOF_OF_DELIVERY, INVOICE.' }),
    siteId: t.id({ description: "The site of the order or payment, which answers with evidence: found from orderId when omitted; given, it must be that site (VALIDATION_FAILED, field siteId, otherwise, and when orderId names several sites' orders and it is omitted)." }),
  }),
});
