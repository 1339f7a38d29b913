/**
 * The OpenAPI descriptions of a site's webhook endpoints (docs/merchant-webhooks.md#endpoints): its schemas and its
 * operations, keyed as their routes are written. Site basic auth; errors in the platform's body.
 */
import { jsonAnswer, jsonBody, platformErrors, SITE_AUTH, type RouteDoc, type RouteDocs, type Schema } from './types.ts';
import { DELIVERY_NEXT_ATTEMPT_AT, TIME_NOTES } from '../../src/notifications/endpoint-view.ts';
import { EVENT_TYPES } from '../../src/notifications/endpoint-rules.ts';
const TAG = 'Webhook endpoints';

const eventTypes: Schema = {
  type: 'array',
  items: { type: 'string', enum: EVENT_TYPES },
  description: "Document 2's paths without the slash; empty or absent: all.",
};
const endpointFields: Record<string, Schema> = {
  url: {
    type: 'string',
    format: 'uri',
    description:
      'Each notification is POSTed to this url + its path. http(s), no credentials, query or fragment; on the public internet unless the operator lists the network (ENDPOINT_ALLOWED_NETWORKS): this machine or a private, link-local or reserved address is 422.',
  },
  description: { type: ['string', 'null'] },
  eventTypes,
  enabled: { type: 'boolean' },
};
const time = (description?: string): Schema => ({ type: ['string', 'null'], format: 'date-time', ...(description ? { description } : {}) });
const endpoint = (withSecret: boolean): Schema => ({
  type: 'object',
  required: ['id', 'url', 'eventTypes', 'enabled', 'createdAt', ...(withSecret ? ['secret'] : [])],
  properties: {
    id: { type: 'string' },
    ...endpointFields,
    disabledReason: { type: ['string', 'null'], description: 'Why it was disabled (a 410, or failing for ENDPOINT_DISABLE_AFTER).' },
    failingSince: time('Since when every attempt has failed.'),
    throttledUntil: time(),
    previousSecretExpiresAt: time('While a rotation lasts, deliveries are signed with the previous secret too.'),
    createdAt: time(),
    updatedAt: time(),
    ...(withSecret ? { secret: { type: 'string', pattern: '^whsec_', description: 'Shown only here and on rotation.' } } : {}),
  },
});
const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DROPPED'];
const delivery: Schema = {
  type: 'object',
  required: ['webhookId', 'eventType', 'status', 'attempts'],
  properties: {
    id: { type: 'string' },
    webhookId: { type: 'string', description: 'The same at every endpoint the message goes to.' },
    eventType: { type: 'string' },
    status: { type: 'string', enum: DELIVERY_STATUSES },
    attemptCount: { type: 'integer', minimum: 0 },
    nextAttemptAt: time(DELIVERY_NEXT_ATTEMPT_AT),
    createdAt: time(),
    deliveredAt: time(TIME_NOTES.deliveredAt),
    lastError: { type: ['string', 'null'] },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          attempt: { type: 'integer' },
          startedAt: time(),
          durationMs: { type: ['integer', 'null'] },
          statusCode: { type: ['integer', 'null'] },
          responseExcerpt: { type: ['string', 'null'] },
          error: { type: ['string', 'null'] },
        },
      },
    },
  },
};

export const WEBHOOK_ENDPOINT_SCHEMAS: Record<string, Schema> = {
  WebhookEndpointInput: { type: 'object', required: ['url'], properties: endpointFields, additionalProperties: false, description: 'Any other field is 400: a misspelled eventTypes or enabled would otherwise be ignored.' },
  WebhookEndpointPatch: { type: 'object', properties: endpointFields, additionalProperties: false, description: 'Any of the creation fields; any other field is 400.' },
  WebhookEndpoint: endpoint(false),
  WebhookEndpointCreated: endpoint(true),
  WebhookEndpointList: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/WebhookEndpoint' } } } },
  WebhookSecret: {
    type: 'object',
    required: ['secret'],
    properties: { secret: { type: 'string', pattern: '^whsec_' }, previousSecretExpiresAt: time('The previous secret signs too until then.') },
  },
  WebhookDelivery: delivery,
  WebhookDeliveryList: {
    type: 'object',
    required: ['data'],
    properties: {
      data: { type: 'array', items: { $ref: '#/components/schemas/WebhookDelivery' } },
      hasMore: { type: 'boolean' },
      nextCursor: { type: ['string', 'null'], description: 'Pass as `after` for the next page.' },
    },
  },
  WebhookRecoverInput: { type: 'object', required: ['since'], properties: { since: { type: 'string', format: 'date-time' } } },
};

const ID = { id: { schema: { type: 'string' }, description: "The endpoint's id; another site's answers 404." } };
const errors = (statuses: number[]) => platformErrors(statuses);

function op(doc: Omit<RouteDoc, 'tags' | 'security'>, withId = true): RouteDoc {
  return { ...doc, tags: [TAG], security: SITE_AUTH, ...(withId ? { pathSchemas: ID } : {}) };
}

export const WEBHOOK_ENDPOINT_DOCS: RouteDocs = {
  'POST /v1/webhooks/endpoints': op(
    {
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint',
      requestBody: jsonBody('WebhookEndpointInput', { url: 'https://merchant.example/hooks', eventTypes: ['orderstatusupdatenotification'] }),
      responses: { '201': jsonAnswer('The endpoint, with its signing secret (shown only now).', 'WebhookEndpointCreated'), ...errors([400, 401, 413, 415, 422, 500]) },
    },
    false,
  ),
  'GET /v1/webhooks/endpoints': op({ operationId: 'listWebhookEndpoints', summary: "The site's webhook endpoints", responses: { '200': jsonAnswer('The endpoints, without secrets.', 'WebhookEndpointList'), ...errors([401, 500]) } }, false),
  'GET /v1/webhooks/endpoints/:id': op({ operationId: 'getWebhookEndpoint', summary: 'A webhook endpoint', responses: { '200': jsonAnswer('The endpoint.', 'WebhookEndpoint'), ...errors([401, 404, 500]) } }),
  'PATCH /v1/webhooks/endpoints/:id': op({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description: '`enabled: true` says the receiver is fixed: it re-enables a disabled endpoint, ends a throttle (a Retry-After) and a failure run, and sends the PENDING deliveries it kept now; `recover` then sends what FAILED. A new url also ends a throttle.',
    requestBody: jsonBody('WebhookEndpointPatch', { enabled: true }),
    responses: { '200': jsonAnswer('The endpoint.', 'WebhookEndpoint'), ...errors([400, 401, 404, 413, 415, 422, 500]) },
  }),
  'DELETE /v1/webhooks/endpoints/:id': op({ operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint', responses: { '204': { description: 'Deleted.' }, ...errors([401, 404, 500]) } }),
  'POST /v1/webhooks/endpoints/:id/rotate-secret': op({
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description: 'For 24 hours deliveries are signed with both secrets.',
    responses: { '200': jsonAnswer('The new secret.', 'WebhookSecret'), ...errors([401, 404, 500]) },
  }),
  'GET /v1/webhooks/endpoints/:id/deliveries': op({
    operationId: 'listWebhookDeliveries',
    summary: "The endpoint's deliveries",
    parameters: [
      { name: 'status', in: 'query', required: false, description: 'One status, or several separated by commas.', schema: { type: 'string' }, example: 'FAILED' },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } },
      { name: 'after', in: 'query', required: false, description: 'The nextCursor of the previous page.', schema: { type: 'string' } },
    ],
    responses: { '200': jsonAnswer('The deliveries and their attempts.', 'WebhookDeliveryList'), ...errors([400, 401, 404, 500]) },
  }),
  'POST /v1/webhooks/endpoints/:id/recover': op({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Send again every FAILED delivery since a time',
    description: '422 while the endpoint is disabled: enable it first (PATCH `{"enabled": true}`), then recover.',
    requestBody: jsonBody('WebhookRecoverInput', { since: '2026-11-22T00:00:00Z' }),
    responses: {
      '202': jsonAnswer('How many deliveries are due again.', { type: 'object', required: ['recovered'], properties: { recovered: { type: 'integer', minimum: 0 } } }),
      ...errors([400, 401, 404, 413, 415, 422, 500]),
    },
  }),
  'POST /v1/webhooks/endpoints/:id/test': op({
    operationId: 'testWebhookEndpoint',
    summary: 'Send a signed test notification to this endpoint only',
    description: 'Sent now, even while a Retry-After throttles the endpoint (the merchant asking outranks it); 422 while the endpoint is disabled.',
    responses: { '202': jsonAnswer('The test delivery, queued.', 'WebhookDelivery'), ...errors([401, 404, 422, 500]) },
  }),
  'POST /v1/webhooks/endpoints/:id/deliveries/:deliveryId/redeliver': op({
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send one delivery again',
    description: 'Due now (one whose attempt is in flight: again once that attempt is recorded), even while a Retry-After throttles the endpoint; 422 while the endpoint is disabled (enable it first: its PENDING deliveries are then sent).',
    responses: { '202': jsonAnswer('The delivery, due again.', 'WebhookDelivery'), ...errors([401, 404, 409, 422, 500]) },
  }),
};
