/**
 * Merchant webhooks on the staff side of the schema (docs/merchant-webhooks.md#staff-graphql): every site's endpoints
 * with their health, each endpoint's deliveries with every attempt, and what the mutations answer. A secret appears
 * in exactly two places, CreatedWebhookEndpoint.secret and RotatedWebhookSecret.secret: the answers of creation and
 * rotation. The root fields are in schema/fields/webhooks.ts; the Node identities in schema/types/nodes.ts.
 */
import { EVENT_TYPES, type EventType } from '../../src/notifications/endpoint-rules.ts';
import { cursorOf, DELIVERY_NEXT_ATTEMPT_AT, TIME_NOTES } from '../../src/notifications/endpoint-view.ts';
import type {
  DeliveryAttempt,
  EndpointDisabledNotice,
  Page,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../src/notifications/endpoint-service.ts';
import { builder, describedValues } from '../builder.ts';
import { CONNECTION_TEXTS, PageInfoRef, type PageInfoShape } from './staff.ts';

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The names NotificationType gives the same five notifications; the values are REST's words. */
const EVENT_TYPE_NAMES: Record<EventType, string> = {
  'token-updated': 'TOKEN_UPDATED',
  requestforevidencenotification: 'REQUEST_FOR_EVIDENCE',
  accountupdatenotification: 'ACCOUNT_UPDATE',
  orderstatusupdatenotification: 'ORDER_STATUS_UPDATE',
  itemlistingrequestupdatenotification: 'ITEM_LISTING_REQUEST_UPDATE',
};

export const WebhookEventTypeEnum = builder.enumType('WebhookEventType', {
  description: "Document 2's five notifications (NotificationType's names); REST's eventTypes are their paths without the slash.",
  values: Object.fromEntries(EVENT_TYPES.map((type) => [EVENT_TYPE_NAMES[type], { value: type, description: `/${type}` }])) as Record<string, { value: EventType }>,
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description:
    'PENDING: queued, waiting for a retry, or kept while its endpoint is disabled; DELIVERED: the endpoint answered 2xx; FAILED: the retry schedule ran out (recover sends it again); DROPPED: not sent, as it had nothing left to say when due.',
  values: describedValues(['PENDING', 'DELIVERED', 'FAILED', 'DROPPED'] as const, {
    PENDING: 'Not delivered yet: queued, waiting for its next retry, or kept while the endpoint is disabled or throttled.',
    DELIVERED: 'The endpoint answered 2xx; deliveredAt says when.',
    FAILED: 'Every attempt of the retry schedule failed: recoverWebhookEndpoint or redeliverWebhookDelivery sends it again.',
    DROPPED: 'Never sent: when due it had nothing left to say (an evidence request whose evidence all came meanwhile); lastError says why.',
  }),
});

const WebhookDeliveryAttemptRef = builder.objectRef<DeliveryAttempt>('WebhookDeliveryAttempt').implement({
  description: 'One POST to the endpoint.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first; redeliveries and recoveries keep counting.' }),
    startedAt: t.field({ type: 'DateTime', description: 'When the POST started.', resolve: (a) => new Date(a.startedAt) }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the POST took until the answer or the failure, in milliseconds (a timeout is about 10000).' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The endpoint's HTTP status; null when no answer came." }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 500 characters of the answer.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (timeout, refused connection).' }),
  }),
});

export const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint');
export const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery');

interface ConnectionShape<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: PageInfoShape;
  totalCount: number;
}

/** A service page as a Relay connection: each edge's cursor is the position after it (the list's own cursor). */
export function toConnection<T extends { id: string; createdAt: number }>(page: Page<T>): ConnectionShape<T> {
  const edges = page.items.map((node) => ({ cursor: cursorOf({ created_at: node.createdAt, id: node.id }), node }));
  return { edges, pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor, startCursor: edges[0]?.cursor ?? null }, totalCount: page.totalCount };
}

/** `what` names the node in the edge's words (CONNECTION_TEXTS). */
function connection<T>(name: string, node: typeof WebhookEndpointRef | typeof WebhookDeliveryRef, description: string, what: string) {
  const edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    description: CONNECTION_TEXTS.edge(what),
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: CONNECTION_TEXTS.cursor }),
      node: t.field({ type: node as never, description: CONNECTION_TEXTS.node(what), resolve: (e) => e.node as never }),
    }),
  });
  return builder.objectRef<ConnectionShape<T>>(`${name}Connection`).implement({
    description,
    fields: (t) => ({
      edges: t.field({ type: [edge], description: CONNECTION_TEXTS.edges, resolve: (c) => c.edges }),
      pageInfo: t.field({ type: PageInfoRef, description: CONNECTION_TEXTS.pageInfo, resolve: (c) => c.pageInfo }),
      totalCount: t.exposeInt('totalCount', { description: 'Matching the filters, on every page.' }),
    }),
  });
}

export const WebhookEndpointConnectionRef = connection<WebhookEndpoint>('WebhookEndpoint', WebhookEndpointRef, 'Webhook endpoints, oldest first.', 'webhook endpoint');
export const WebhookDeliveryConnectionRef = connection<WebhookDelivery>('WebhookDelivery', WebhookDeliveryRef, 'Deliveries of one endpoint, newest first.', 'delivery, with its attempts');

WebhookEndpointRef.implement({
  description: "A site's webhook endpoint (docs/merchant-webhooks.md#endpoints), with its health; never its secret.",
  // `id` (its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    endpointId: t.id({ description: 'The id REST shows (ep_…): /v1/webhooks/endpoints/{endpointId}.', resolve: (e) => e.id }),
    siteId: t.id({ description: 'The site that owns it (the bootstrap site or a merchant of POST /merchants).', resolve: (e) => e.siteId }),
    url: t.exposeString('url', { description: 'Each notification is POSTed to url + its path.' }),
    description: t.exposeString('description', { description: "The site's own note about the endpoint (at most 500 characters); empty when none was given." }),
    eventTypes: t.field({ type: [WebhookEventTypeEnum], description: 'Empty: every event type.', resolve: (e) => e.eventTypes }),
    enabled: t.exposeBoolean('enabled', { description: 'False: nothing is sent to it and its deliveries wait, PENDING (disabledReason says why); enable it with updateWebhookEndpoint.' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it is disabled (410 Gone, failing too long, by the site); null while enabled.' }),
    failingSince: t.field({ type: 'DateTime', nullable: true, description: 'The first failed attempt of the current run of failures; null after a success.', resolve: (e) => date(e.failingSince) }),
    throttledUntil: t.field({ type: 'DateTime', nullable: true, description: 'Nothing is sent before this, as its Retry-After asked; null when not throttled.', resolve: (e) => date(e.throttledUntil) }),
    previousSecretExpiresAt: t.field({ type: 'DateTime', nullable: true, description: 'Until then the secret before the last rotation signs too; null outside an overlap.', resolve: (e) => date(e.previousSecretExpiresAt) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the endpoint was registered.', resolve: (e) => new Date(e.createdAt) }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed: an update, a rotation, or being disabled.', resolve: (e) => new Date(e.updatedAt) }),
    deliveries: t.field({
      type: WebhookDeliveryConnectionRef,
      description: 'Its deliveries, newest first. first: 50 by default, 200 at most.',
      args: {
        first: t.arg.int({ description: 'Page size: 50 when omitted; below 1 counts as 1, above 200 as 200.' }),
        after: t.arg.string({ description: 'endCursor of the previous page.' }),
        status: t.arg({ type: [WebhookDeliveryStatusEnum], description: 'Only these statuses; all when omitted.' }),
      },
      resolve: async (e, { first, after, status }, { services }) =>
        toConnection(await services.webhooks.endpointDeliveries(e.id, { first, after, statuses: status ?? null })),
    }),
  }),
});

WebhookDeliveryRef.implement({
  description: 'One message to one endpoint, with every attempt. Never its body (a token may be in it).',
  fields: (t) => ({
    deliveryId: t.id({ description: 'The id REST shows (dlv_…): …/deliveries/{deliveryId}/redeliver.', resolve: (d) => d.id }),
    webhookId: t.id({ description: 'The webhook-id header: the message id, the same at every endpoint it goes to.', resolve: (d) => d.webhookId }),
    siteId: t.id({ description: 'The site the message belongs to, which owns the endpoint.', resolve: (d) => d.siteId }),
    endpoint: t.field({
      type: WebhookEndpointRef,
      nullable: true,
      description: 'Null once the endpoint is deleted.',
      resolve: (d, _args, { services }) => services.webhooks.endpoint(d.endpointId),
    }),
    eventType: t.exposeString('eventType', { description: 'One of the five event types (token-updated, …), or webhook-test for a test event.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, description: 'PENDING, DELIVERED, FAILED or DROPPED.', resolve: (d) => d.status }),
    attemptCount: t.exposeInt('attemptCount', { description: 'How many POSTs were made to the endpoint, over every redelivery and recovery; 0 before the first.' }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: DELIVERY_NEXT_ATTEMPT_AT, resolve: (d) => date(d.nextAttemptAt) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the message was queued for this endpoint; recoverWebhookEndpoint(since) compares with it.', resolve: (d) => new Date(d.createdAt) }),
    deliveredAt: t.field({ type: 'DateTime', nullable: true, description: TIME_NOTES.deliveredAt, resolve: (d) => date(d.deliveredAt) }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed (HTTP 500, a timeout, a refused connection) or why it was DROPPED; null before any failure and after a delivery.' }),
    attempts: t.field({ type: [WebhookDeliveryAttemptRef], description: 'Every POST made to the endpoint, oldest first; empty before the first.', resolve: (d) => d.attempts }),
  }),
});

export const CreatedWebhookEndpointRef = builder.objectRef<{ endpoint: WebhookEndpoint; secret: string }>('CreatedWebhookEndpoint').implement({
  description: 'A new endpoint and its signing secret, shown this once.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint as created.', resolve: (c) => c.endpoint }),
    secret: t.exposeString('secret', { description: 'whsec_ + base64 of 32 random bytes: give it to the standardwebhooks library. Never shown again.' }),
  }),
});

export const RotatedWebhookSecretRef = builder
  .objectRef<{ endpoint: WebhookEndpoint; secret: string; previousSecretExpiresAt: number }>('RotatedWebhookSecret')
  .implement({
    description: 'The new signing secret, shown this once; the old one signs too until previousSecretExpiresAt.',
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint after the rotation.', resolve: (r) => r.endpoint }),
      secret: t.exposeString('secret', { description: 'The new whsec_ secret: give it to the standardwebhooks library now. Never shown again.' }),
      previousSecretExpiresAt: t.field({ type: 'DateTime', description: 'Until then (24 hours from the rotation) deliveries carry signatures with both secrets; after it, only the new one.', resolve: (r) => new Date(r.previousSecretExpiresAt) }),
    }),
  });

export const RecoveredWebhookDeliveriesRef = builder.objectRef<{ endpoint: WebhookEndpoint; recovered: number }>('RecoveredWebhookDeliveries').implement({
  description: 'What a recovery made due again.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint recovered, as it is now.', resolve: (r) => r.endpoint }),
    recovered: t.exposeInt('recovered', { description: 'FAILED deliveries now due again.' }),
  }),
});

export const WebhookEndpointDisabledRef = builder.objectRef<EndpointDisabledNotice>('WebhookEndpointDisabled').implement({
  description: 'An endpoint the dispatcher disabled (410 Gone, or every attempt failing for ENDPOINT_DISABLE_AFTER).',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, nullable: true, description: 'As it is now; null once deleted.', resolve: (n, _a, { services }) => services.webhooks.endpoint(n.endpointId) }),
    endpointId: t.id({ description: 'The id REST shows (ep_…) of the endpoint disabled; kept after it is deleted.', resolve: (n) => n.endpointId }),
    siteId: t.id({ description: 'The site that owns the endpoint.', resolve: (n) => n.siteId }),
    url: t.exposeString('url', { description: 'The URL it had when disabled.' }),
    reason: t.exposeString('reason', { description: 'Why, in a sentence: it answered 410 Gone, or every attempt failed for a while (e.g. "Every attempt failed for 5 days.").' }),
    at: t.field({ type: 'DateTime', description: 'When it was disabled.', resolve: (n) => new Date(n.at) }),
  }),
});

export const WebhookEndpointInputRef = builder.inputType('WebhookEndpointInput', {
  description: 'An endpoint to create (REST POST /v1/webhooks/endpoints).',
  fields: (t) => ({
    url: t.string({ required: true, description: 'http:// or https://, no credentials, query or fragment; on the public internet unless ENDPOINT_ALLOWED_NETWORKS lists its network (this machine or a private, link-local or reserved address is refused).' }),
    description: t.string({ description: 'A note for the site about the endpoint, at most 500 characters; empty when omitted.' }),
    eventTypes: t.field({ type: [WebhookEventTypeEnum], description: 'Empty or omitted: every event type.' }),
    enabled: t.boolean({ description: 'true when omitted.' }),
  }),
});

export const WebhookEndpointPatchRef = builder.inputType('WebhookEndpointPatch', {
  description: 'The fields to change (REST PATCH); omitted ones stay. enabled: true also clears the failure run and the throttle.',
  fields: (t) => ({
    url: t.string({ description: 'A new URL, under the same rules as at creation; moving it clears the failure run.' }),
    description: t.string({ description: 'A new note, at most 500 characters; null clears it.' }),
    eventTypes: t.field({ type: [WebhookEventTypeEnum], description: 'The new event types; empty means every event type.' }),
    enabled: t.boolean({ description: 'false disables it (nothing is sent, deliveries wait); true enables it and clears the failure run and the throttle.' }),
  }),
});
