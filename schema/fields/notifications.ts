/**
 * Staff root fields of notifications and claims (docs/graphql.md#root-fields): `notifications`, `redeliverNotification`,
 * `notificationEvents`, `claims`, `openClaim`. Thin: args → service → result.
 */
import { builder } from '../builder.ts';
import {
  ClaimConnectionRef,
  ClaimRef,
  NotificationConnectionRef,
  NotificationRef,
  NotificationStatusEnum,
  NotificationTypeEnum,
  OpenClaimInputRef,
} from '../types/notifications.ts';
import type { Notification } from '../../src/notifications/notification-service.ts';

const staffOnly = { staff: true } as const;

builder.queryField('notifications', (t) =>
  t.field({
    type: NotificationConnectionRef,
    authScopes: staffOnly,
    description: 'Staff: every notification with its attempts, oldest first. first: 50 by default, 200 at most.',
    args: {
      first: t.arg.int({ description: 'Page size: 50 when omitted; below 1 counts as 1, above 200 as 200.' }),
      after: t.arg.string({ description: 'endCursor of the previous page.' }),
      status: t.arg({ type: [NotificationStatusEnum], description: 'Only these statuses; all when omitted.' }),
      type: t.arg({ type: [NotificationTypeEnum], description: 'Only these notifications; all when omitted.' }),
    },
    resolve: (_root, { first, after, status, type }, { services }) =>
      services.notifications.list({ first, after, statuses: status ?? null, paths: type ?? null }),
  }),
);

builder.mutationField('redeliverNotification', (t) =>
  t.field({
    type: NotificationRef,
    authScopes: staffOnly,
    description: 'Staff: send a notification again now, with the same id and body, on a new round of the retry schedule. Answers with it as the redelivery left it (PENDING, due now); its attempts follow on notificationEvents.',
    args: { id: t.arg.id({ required: true, description: "The notification's id (msg_…), also its global id and webhook-id." }) },
    resolve: (_root, { id }, { services }) => services.notifications.redeliver(String(id)),
  }),
);

builder.subscriptionField('notificationEvents', (t) =>
  t.field({
    type: NotificationRef,
    authScopes: staffOnly,
    description: 'Staff: the notification after each delivery attempt, on any instance, as it happens.',
    subscribe: (_root, _args, { services }) => services.notifications.events(),
    resolve: (notification: Notification) => notification,
  }),
);

builder.queryField('claims', (t) =>
  t.field({
    type: ClaimConnectionRef,
    authScopes: staffOnly,
    description: 'Staff: every claim by claim id, oldest first. first: 50 by default, 200 at most.',
    args: {
      first: t.arg.int({ description: 'Page size: 50 when omitted; below 1 counts as 1, above 200 as 200.' }),
      after: t.arg.string({ description: 'endCursor of the previous page.' }),
    },
    resolve: (_root, { first, after }, { services }) => services.disputes.claims.list({ first, after }),
  }),
);

builder.mutationField('openClaim', (t) =>
  t.field({
    type: ClaimRef,
    authScopes: staffOnly,
    description: 'Staff: open a claim; the merchant gets /requestforevidencenotification now and a reminder every EVIDENCE_REMINDER_HOURS while evidence is missing.',
    args: { input: t.arg({ type: OpenClaimInputRef, required: true, description: 'The claim: the order or payment it is about, its type, amount, due date and the evidence it asks for.' }) },
    resolve: (_root, { input }, { services }) =>
      services.disputes.claims.open({ ...input, orderId: String(input.orderId), siteId: input.siteId == null ? null : String(input.siteId) }),
  }),
);
