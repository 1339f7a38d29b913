/**
 * Staff root fields of merchant webhooks (docs/merchant-webhooks.md#staff-graphql): every site's endpoints and each
 * endpoint's deliveries as connections; create, update, rotate, recover, test and redeliver for any site, each naming
 * the site it acts for (an endpoint of another site is NOT_FOUND, as over REST); live delivery changes and
 * endpoint-disabled notices. Thin: args → services.webhooks → the types of schema/types/webhooks.ts.
 */
import { DomainError } from '../../src/kernel/errors.ts';
import type { EndpointDisabledNotice, WebhookDelivery } from '../../src/notifications/endpoint-service.ts';
import { builder, notAnIdError } from '../builder.ts';
import { decodeGlobalId } from '../global-ids.ts';
import {
  CreatedWebhookEndpointRef,
  RecoveredWebhookDeliveriesRef,
  RotatedWebhookSecretRef,
  toConnection,
  WebhookDeliveryConnectionRef,
  WebhookDeliveryRef,
  WebhookDeliveryStatusEnum,
  WebhookEndpointConnectionRef,
  WebhookEndpointDisabledRef,
  WebhookEndpointInputRef,
  WebhookEndpointPatchRef,
  WebhookEndpointRef,
} from '../types/webhooks.ts';

const staffOnly = { staff: true } as const;

/**
 * An id argument as the record's own key: its global id (node's) or the id REST shows (`ep_…`, `dlv_…`; base64
 * never holds `_`, so the two never meet).
 */
function keyOf(typename: string, prefix: string) {
  return (id: string | number): string => {
    const raw = String(id);
    if (raw.startsWith(prefix)) return raw;
    const decoded = decodeGlobalId(raw);
    if (decoded?.typename !== typename) throw notAnIdError(raw);
    return decoded.id;
  };
}
const endpointKey = keyOf('WebhookEndpoint', 'ep_');
const deliveryKey = keyOf('WebhookDelivery', 'dlv_');

/** The fields that were given, as the REST body would carry them (an omitted field stays as it is). */
const given = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

const siteArg = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) =>
  t.arg.id({ required: true, description: 'The site it acts for: an endpoint of another site is NOT_FOUND.' });

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: WebhookEndpointConnectionRef,
    authScopes: staffOnly,
    description: 'Staff: the webhook endpoints of every site, or of one, oldest first. first: 50 by default, 200 at most.',
    args: { siteId: t.arg.id({ description: "Only this site's." }), first: t.arg.int({ description: 'Page size: 50 when omitted; below 1 counts as 1, above 200 as 200.' }), after: t.arg.string({ description: 'endCursor of the previous page.' }) },
    resolve: async (_root, { siteId, first, after }, { services }) =>
      toConnection(await services.webhooks.allEndpoints({ siteId: siteId == null ? null : String(siteId), first, after })),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: WebhookDeliveryConnectionRef,
    authScopes: staffOnly,
    description: 'Staff: one endpoint’s deliveries with every attempt, newest first. first: 50 by default, 200 at most.',
    args: {
      endpointId: t.arg.id({ required: true, description: 'Its global id or its REST id (ep_…).' }),
      status: t.arg({ type: [WebhookDeliveryStatusEnum], description: 'Only these statuses; all when omitted.' }),
      first: t.arg.int({ description: 'Page size: 50 when omitted; below 1 counts as 1, above 200 as 200.' }),
      after: t.arg.string({ description: 'endCursor of the previous page.' }),
    },
    resolve: async (_root, { endpointId, status, first, after }, { services }) =>
      toConnection(await services.webhooks.endpointDeliveries(endpointKey(endpointId), { statuses: status ?? null, first, after })),
  }),
);

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedWebhookEndpointRef,
    authScopes: staffOnly,
    description: 'Staff: register an endpoint for a site. The answer carries its secret, shown this once.',
    args: { siteId: siteArg(t), input: t.arg({ type: WebhookEndpointInputRef, required: true, description: 'The URL, and optionally a description, the event types and whether it starts enabled.' }) },
    resolve: async (_root, { siteId, input }, { services }) => {
      if (!(await services.sites.find(String(siteId)))) throw new DomainError('not_found', 'No site has that id.', { field: 'siteId' });
      const { secret, ...endpoint } = await services.webhooks.create(String(siteId), given(input));
      return { endpoint, secret };
    },
  }),
);

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointRef,
    authScopes: staffOnly,
    description: 'Staff: change any of an endpoint’s fields; enabled: true also clears its failure run and throttle (then recover sends what it kept).',
    args: { siteId: siteArg(t), id: t.arg.id({ required: true, description: 'The endpoint: its global id or its REST id (ep_…).' }), input: t.arg({ type: WebhookEndpointPatchRef, required: true, description: 'Only the fields to change; omitted ones stay as they are.' }) },
    resolve: (_root, { siteId, id, input }, { services }) => services.webhooks.update(String(siteId), endpointKey(id), given(input)),
  }),
);

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: RotatedWebhookSecretRef,
    authScopes: staffOnly,
    description: 'Staff: a new signing secret, shown this once; for 24 hours deliveries carry signatures with both.',
    args: { siteId: siteArg(t), id: t.arg.id({ required: true, description: 'The endpoint: its global id or its REST id (ep_…).' }) },
    resolve: async (_root, { siteId, id }, { services }) => {
      const key = endpointKey(id);
      const rotated = await services.webhooks.rotateSecret(String(siteId), key);
      return { ...rotated, endpoint: await services.webhooks.get(String(siteId), key) };
    },
  }),
);

builder.mutationField('recoverWebhookEndpoint', (t) =>
  t.field({
    type: RecoveredWebhookDeliveriesRef,
    authScopes: staffOnly,
    description: 'Staff: every FAILED delivery of the endpoint created since `since` is due again; refused while it is disabled.',
    args: {
      siteId: siteArg(t),
      id: t.arg.id({ required: true, description: 'The endpoint: its global id or its REST id (ep_…).' }),
      since: t.arg({ type: 'DateTime', required: true, description: 'FAILED deliveries queued at or after this moment are due again; it must not be in the future.' }),
    },
    resolve: async (_root, { siteId, id, since }, { services }) => {
      const key = endpointKey(id);
      const { recovered } = await services.webhooks.recover(String(siteId), key, { since: since.toISOString() });
      return { recovered, endpoint: await services.webhooks.get(String(siteId), key) };
    },
  }),
);

builder.mutationField('testWebhookEndpoint', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    authScopes: staffOnly,
    description: 'Staff: a signed test event (/webhook-test) to that endpoint only; refused while it is disabled.',
    args: { siteId: siteArg(t), id: t.arg.id({ required: true, description: 'The endpoint: its global id or its REST id (ep_…).' }) },
    resolve: (_root, { siteId, id }, { services }) => services.webhooks.sendTest(String(siteId), endpointKey(id)),
  }),
);

builder.mutationField('redeliverWebhookDelivery', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    authScopes: staffOnly,
    description: 'Staff: one delivery due again now, with the same webhook-id, on a new round of the retry schedule (one waiting for its next attempt: that attempt now; one in flight: again once that attempt is recorded, whatever its outcome). Answers with it as the redelivery left it; its attempts follow on webhookDeliveries.',
    args: { siteId: siteArg(t), endpointId: t.arg.id({ required: true, description: 'The endpoint the delivery goes to: its global id or its REST id (ep_…).' }), id: t.arg.id({ required: true, description: 'The delivery: its global id or its REST id (dlv_…).' }) },
    resolve: (_root, { siteId, endpointId, id }, { services }) => services.webhooks.redeliver(String(siteId), endpointKey(endpointId), deliveryKey(id)),
  }),
);

builder.subscriptionField('webhookDeliveries', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    authScopes: staffOnly,
    description: 'Staff: each delivery as it changes (queued, attempted, due again), on any instance; of one site or endpoint when given.',
    args: { siteId: t.arg.id({ description: 'Only deliveries of this site; all sites when omitted.' }), endpointId: t.arg.id({ description: 'Its global id or its REST id (ep_…).' }) },
    subscribe: (_root, { siteId, endpointId }, { services }) =>
      services.webhooks.deliveryEvents({ siteId: siteId == null ? null : String(siteId), endpointId: endpointId == null ? null : endpointKey(endpointId) }),
    resolve: (delivery: WebhookDelivery) => delivery,
  }),
);

builder.subscriptionField('webhookEndpointDisabled', (t) =>
  t.field({
    type: WebhookEndpointDisabledRef,
    authScopes: staffOnly,
    description: 'Staff: each endpoint the dispatcher disables (410 Gone, or failing for ENDPOINT_DISABLE_AFTER), as it happens.',
    subscribe: (_root, _args, { services }) => services.webhooks.disabledEvents(),
    resolve: (notice: EndpointDisabledNotice) => notice,
  }),
);
