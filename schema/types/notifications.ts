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
import { builder, describedValues } from '../builder.ts';
import { CONNECTION_TEXTS, PageInfoRef, relayPageInfo } from './staff.ts';

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export const NotificationStatusEnum = builder.enumType('NotificationStatus', {
  description:
    'PENDING: queued or waiting for a retry; DELIVERED: the merchant answered 2xx; FAILED: the retry schedule ran out; DROPPED: not sent, because when it was due it had nothing left to say (lastError says why).',
  values: describedValues(['PENDING', 'DELIVERED', 'FAILED', 'DROPPED'] as const, {
    PENDING: 'Not delivered yet: queued (also while MERCHANT_ENDPOINT is unset) or waiting for its next retry at nextAttemptAt.',
    DELIVERED: 'The merchant endpoint answered 2xx; deliveredAt says when.',
    FAILED: 'Every attempt of the retry schedule failed; redeliverNotification sends it again.',
    DROPPED: "Never sent to MERCHANT_ENDPOINT: it had nothing left to say when due, or it belongs to another site (sent to that site's endpoints); lastError says which.",
  }),
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
    startedAt: t.field({ type: 'DateTime', description: 'When the POST started.', resolve: (a) => new Date(a.startedAt) }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the POST took until the answer or the failure, in milliseconds (a timeout is about 10000).' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The merchant's HTTP status; null when no answer came." }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 500 characters of the answer.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (timeout, refused connection).' }),
  }),
});

export const NotificationRef = builder.objectRef<Notification>('Notification').implement({
  description: 'A document 2 notification in the outbox, with every delivery attempt.',
  // `id` (its own msg_… id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    type: t.field({ type: NotificationTypeEnum, description: 'Which of the five notifications it is; switch on this rather than on path.', resolve: (n) => n.path }),
    path: t.exposeString('path', { description: 'The path it is POSTed to at MERCHANT_ENDPOINT, e.g. /token-updated (the same notification as type).' }),
    body: t.exposeString('body', {
      description: 'The JSON body as queued, with vault tokens masked (tok_…abcd); fields computed at send time are added when it is sent.',
    }),
    status: t.field({ type: NotificationStatusEnum, description: 'Where its delivery to MERCHANT_ENDPOINT stands: PENDING, DELIVERED, FAILED or DROPPED.', resolve: (n) => n.status }),
    subject: t.exposeString('subject', { nullable: true, description: 'What it is about: a token (masked), account, order or claim id.' }),
    attemptCount: t.exposeInt('attemptCount', { description: 'How many POSTs were made, over every redelivery; 0 before the first.' }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: TIME_NOTES.nextAttemptAt, resolve: (n) => date(n.nextAttemptAt) }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was queued, in the same transaction as the change that caused it.', resolve: (n) => new Date(n.createdAt) }),
    deliveredAt: t.field({ type: 'DateTime', nullable: true, description: TIME_NOTES.deliveredAt, resolve: (n) => date(n.deliveredAt) }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed (HTTP 500, a timeout, a refused connection) or why it was DROPPED; null before any failure and after a delivery.' }),
    attempts: t.field({ type: [NotificationAttemptRef], description: 'Every POST made, oldest first; empty before the first.', resolve: (n) => n.attempts }),
  }),
});

const NotificationEdgeRef = builder.objectRef<NotificationPage['edges'][number]>('NotificationEdge').implement({
  description: CONNECTION_TEXTS.edge('notification'),
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: CONNECTION_TEXTS.cursor }),
    node: t.field({ type: NotificationRef, description: CONNECTION_TEXTS.node('notification, with its attempts'), resolve: (e) => e.node }),
  }),
});

export const NotificationConnectionRef = builder.objectRef<NotificationPage>('NotificationConnection').implement({
  description: 'Notifications, oldest first.',
  fields: (t) => ({
    edges: t.field({ type: [NotificationEdgeRef], description: CONNECTION_TEXTS.edges, resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, description: CONNECTION_TEXTS.pageInfo, resolve: relayPageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'Notifications matching the filters, on every page.' }),
  }),
});

const enumOf = <T extends string>(name: string, values: readonly T[], description: string, meanings: Record<T, string>) =>
  builder.enumType(name, {
    description,
    values: describedValues(values, meanings),
  });

export const ClaimTypeEnum = enumOf('ClaimType', CLAIM_TYPES, "Document 2 claimType: what kind of claim asks for evidence (document 2 lists the names only; these are the industry's usual meanings).", {
  CHARGEBACK: "The cardholder's bank reversed the charge; evidence answers the dispute.",
  PRE_CHARGEBACK: 'A dispute raised before a chargeback is filed; answering it may prevent the chargeback.',
  FAIL_TO_BILL: 'A claim that the order was not billed as it should have been.',
  FRAUD_DECISION: "A claim about the platform's fraud decision on the order.",
  DEBIT_MEMO: 'A debit memo: an amount the processor debits from the merchant for the order, outside a chargeback.',
  FRAUD_ALERT: 'The issuer or network reported the charge as fraud, without a chargeback yet.',
  REQUEST_FOR_INFORMATION: 'The issuer asks for information about the charge before deciding on a dispute.',
  COMPENSATION_REQUEST: 'A request for compensation of a loss on the order.',
  MERCHANT_CONFIRMED_FRAUD: 'The merchant itself confirmed the order was fraudulent.',
  VICTIM_CONFIRMED_FRAUD: 'The cardholder (the victim) confirmed the order was fraudulent.',
});
export const ReasonCategoryEnum = enumOf('ReasonCategory', REASON_CATEGORIES, "Document 2 reasonCategory: the broad group of the claim's reasonCode.", {
  FRAUD: 'The cardholder says they did not make or authorise the purchase.',
  SERVICE: 'The goods or services: not received, not as described, or cancelled.',
  GENERAL: 'Any other reason.',
  AUTHORIZATION: 'The charge lacked a valid authorisation (declined or expired).',
  PROCESSING_ERROR: 'A processing mistake: a duplicate charge, a wrong amount or currency, a late presentment.',
});
const ClaimStatusEnum = enumOf('ClaimStatus', ['OPEN', 'EVIDENCE_SUBMITTED', 'EXPIRED'] as const, 'OPEN until every requested type is satisfied (EVIDENCE_SUBMITTED) or the due date passes (EXPIRED).', {
  OPEN: 'Evidence is still missing (missingEvidenceTypes) and the due date is ahead: reminders are sent.',
  EVIDENCE_SUBMITTED: 'Every requested evidence type was given, by file or data points: no more reminders.',
  EXPIRED: 'The due date passed with evidence still missing: no more reminders.',
});

export const ClaimRef = builder.objectRef<Claim>('Claim').implement({
  description: 'A claim that requires evidence (document 2 "Request for evidence").',
  fields: (t) => ({
    claimId: t.field({ type: 'ID', description: 'int64, as in the notifications.', resolve: (c) => String(c.claimId) }),
    siteId: t.exposeString('siteId', { description: 'The platform site whose credentials submit its evidence.' }),
    orderId: t.exposeString('orderId', { description: "A sleeve order's number, or the orderId of the payment the claim was opened on (also when openClaim named the payment by its id); the evidence request's orderId." }),
    claimType: t.field({ type: ClaimTypeEnum, description: 'What kind of claim it is (document 2 claimType).', resolve: (c) => c.claimType }),
    reasonCode: t.exposeString('reasonCode', { nullable: true, description: "The network's or processor's reason code of the claim, as given to openClaim (e.g. 10.4); null when none was given." }),
    reasonCategory: t.field({ type: ReasonCategoryEnum, nullable: true, description: 'The broad group of the reason; null when none was given.', resolve: (c) => c.reasonCategory }),
    cardType: t.exposeString('cardType', { nullable: true, description: 'The type of card used, as given (e.g. VISA or credit); null when none was given.' }),
    amount: t.exposeFloat('amount', { description: 'In the claim currency (amountClaimCurrency).' }),
    currency: t.exposeString('currency', { description: 'The claim currency (claimCurrency), an ISO 4217 code such as USD.' }),
    processorName: t.exposeString('processorName', { nullable: true, description: 'The payment processor the claim came from; null when not given.' }),
    processorCaseNumber: t.exposeString('processorCaseNumber', { nullable: true, description: "The processor's case id for the claim; null when not given." }),
    processorChargeId: t.exposeString('processorChargeId', { nullable: true, description: "The processor's id of the disputed charge; null when not given." }),
    issueDate: t.exposeString('issueDate', { description: 'YYYY-MM-DD.' }),
    dueDate: t.exposeString('dueDate', { description: 'YYYY-MM-DD; evidence counts until the end of this day (UTC).' }),
    hoursLeftUntilDisputed: t.int({ description: 'Whole hours from now until the end of dueDate (UTC), rounded down; 0 once it has passed. Computed when read.', resolve: (c, _args, ctx) => hoursLeftUntil(c.dueAt, ctx.now()) }),
    status: t.field({ type: ClaimStatusEnum, description: 'OPEN, EVIDENCE_SUBMITTED or EXPIRED.', resolve: (c) => c.status }),
    requestedEvidenceTypes: t.exposeStringList('requestedEvidenceTypes', { description: 'Every evidence type the claim asked for when opened (e.g. PROOF_OF_DELIVERY, INVOICE); they name the evidence, not its format.' }),
    satisfiedEvidenceTypes: t.exposeStringList('satisfiedEvidenceTypes', { description: 'Given by file or data points; never requested again.' }),
    missingEvidenceTypes: t.exposeStringList('missingEvidenceTypes', { description: 'What the next reminder lists.' }),
    nextReminderAt: t.field({ type: 'DateTime', nullable: true, description: 'When the next evidence reminder is due (every EVIDENCE_REMINDER_HOURS); null when none will be sent (evidence complete, expired, or the next would fall after the due date).', resolve: (c) => date(c.nextReminderAt) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the claim was opened (and its first evidence request queued).', resolve: (c) => new Date(c.createdAt) }),
  }),
});

const ClaimEdgeRef = builder.objectRef<ClaimPage['edges'][number]>('ClaimEdge').implement({
  description: CONNECTION_TEXTS.edge('claim'),
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: CONNECTION_TEXTS.cursor }),
    node: t.field({ type: ClaimRef, description: CONNECTION_TEXTS.node('claim'), resolve: (e) => e.node }),
  }),
});

export const ClaimConnectionRef = builder.objectRef<ClaimPage>('ClaimConnection').implement({
  description: 'Claims by claim id, oldest first.',
  fields: (t) => ({
    edges: t.field({ type: [ClaimEdgeRef], description: CONNECTION_TEXTS.edges, resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, description: CONNECTION_TEXTS.pageInfo, resolve: relayPageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'Claims in all, on every page.' }),
  }),
});

export const OpenClaimInputRef = builder.inputType('OpenClaimInput', {
  description: 'The fields of document 2 evidence request; opening a claim sends /requestforevidencenotification.',
  fields: (t) => ({
    orderId: t.id({ required: true, description: "A sleeve order number, a payment id, or the merchant's orderId of a payment. A payment named by its id is kept as its orderId." }),
    claimType: t.field({ type: ClaimTypeEnum, required: true, description: 'What kind of claim it is (document 2 claimType).' }),
    reasonCode: t.string({ description: "The network's or processor's reason code, at most 64 characters; omitted or blank: none." }),
    reasonCategory: t.field({ type: ReasonCategoryEnum, description: 'The broad group of the reason; omitted: none.' }),
    cardType: t.string({ description: 'The type of card used (e.g. VISA), at most 40 characters; omitted or blank: none.' }),
    amount: t.float({ required: true, description: 'In the claim currency, e.g. 45.5.' }),
    currency: t.string({ required: true, description: 'ISO 4217, e.g. USD.' }),
    processorName: t.string({ description: 'The processor the claim came from, at most 64 characters; omitted or blank: none.' }),
    processorCaseNumber: t.string({ description: "The processor's case id, at most 128 characters; omitted or blank: none." }),
    processorChargeId: t.string({ description: "The processor's id of the disputed charge, at most 128 characters; omitted or blank: none." }),
    issueDate: t.string({ description: 'YYYY-MM-DD; today when omitted.' }),
    dueDate: t.string({ required: true, description: 'YYYY-MM-DD, today or later.' }),
    requestedEvidenceTypes: t.stringList({ required: true, description: 'Canonical evidence types, e.g. PROOF_OF_DELIVERY, INVOICE.' }),
    siteId: t.id({ description: "The site of the order or payment, which answers with evidence: found from orderId when omitted; given, it must be that site (VALIDATION_FAILED, field siteId, otherwise, and when orderId names several sites' orders and it is omitted)." }),
  }),
});
