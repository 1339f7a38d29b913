/**
 * The merchant webhook endpoint API (docs/merchant-webhooks.md#endpoints): a site manages its own endpoints with its
 * basic auth (`siteId:apiKey`); every failure answers the platform error body `{status:"error", message, errors}`.
 * Secrets appear only in the answers of creation and rotation. Another site's endpoint id is 404.
 */
import type { WebhookDelivery, WebhookEndpoint } from '../src/notifications/endpoint-service.ts';
import { DomainError } from '../src/kernel/errors.ts';
import type { RestDeps } from './rest-deps.ts';
import { json, readJson, type HttpRequest, type HttpResponse } from './http.ts';
import { inStyle, requireSite } from './platform-http.ts';
import type { Route } from './routes.ts';
import { mediaTypeOf, SIMPLE_REQUEST_TYPES, UnsupportedMediaTypeError } from '../src/kernel/media-type.ts';

const iso = (at: number | null): string | null => (at === null ? null : new Date(at).toISOString());

/** An endpoint as the API shows it: times as ISO date-times, never a secret. */
export function endpointBody(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    throttledUntil: iso(e.throttledUntil),
    previousSecretExpiresAt: iso(e.previousSecretExpiresAt),
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

export function deliveryBody(d: WebhookDelivery) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt),
    deliveredAt: iso(d.deliveredAt),
    lastError: d.lastError,
    attempts: d.attempts.map((a) => ({ attempt: a.attempt, startedAt: iso(a.startedAt), durationMs: a.durationMs, statusCode: a.statusCode, responseExcerpt: a.responseExcerpt, error: a.error })),
  };
}

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DROPPED'] as const;

/** `?status=…` (comma-separated allowed) of the deliveries list; 400 for another word. */
function statusFilter(request: HttpRequest): Array<(typeof STATUSES)[number]> | undefined {
  const raw = request.query.get('status');
  if (raw === null || raw === '') return undefined;
  const words = raw.split(',').map((w) => w.trim().toUpperCase());
  const bad = words.filter((w) => !(STATUSES as readonly string[]).includes(w));
  if (bad.length > 0) throw new DomainError('bad_request', `status must be one of ${STATUSES.join(', ')}.`, { field: 'status', errors: [{ field: 'status', message: `must be one of ${STATUSES.join(', ')}.` }] });
  return words as Array<(typeof STATUSES)[number]>;
}

function firstParam(request: HttpRequest): number | undefined {
  const raw = request.query.get('limit');
  if (raw === null || raw === '') return undefined;
  // 0 and 201 too: answered as 1 and 200 before, while the OpenAPI document says 1 to 200.
  if (!/^\d{1,4}$/u.test(raw) || Number(raw) < 1 || Number(raw) > 200) {
    throw new DomainError('bad_request', 'limit must be a whole number from 1 to 200.', { field: 'limit', errors: [{ field: 'limit', message: 'must be a whole number from 1 to 200.' }] });
  }
  return Number(raw);
}

/**
 * The POSTs that read no body still refuse a browser's simple-request types, 415 as every JSON path does
 * (docs/edge.md#no-cross-site-writes): a form on another site could otherwise rotate a secret, send test events or
 * redeliver with credentials the browser keeps (the 401 asks for basic auth, and a browser remembers what it is given).
 */
function refuseFormBody(request: HttpRequest): void {
  const type = request.headers['content-type'];
  if (SIMPLE_REQUEST_TYPES.includes(mediaTypeOf(type))) throw new UnsupportedMediaTypeError(type!);
}

export function createWebhookRoutes({ services, logger }: RestDeps): Route[] {
  const { webhooks, sites } = services;
  const site = async (request: HttpRequest) => (await requireSite(request, sites)).siteId;

  async function create(request: HttpRequest): Promise<HttpResponse> {
    const siteId = await site(request);
    const created = await webhooks.create(siteId, await readJson(request));
    return json(201, { ...endpointBody(created), secret: created.secret });
  }

  async function list(request: HttpRequest) {
    return json(200, { data: (await webhooks.list(await site(request))).map(endpointBody) });
  }

  async function get(request: HttpRequest, id: string) {
    return json(200, endpointBody(await webhooks.get(await site(request), id)));
  }

  async function update(request: HttpRequest, id: string) {
    const siteId = await site(request);
    return json(200, endpointBody(await webhooks.update(siteId, id, await readJson(request))));
  }

  async function remove(request: HttpRequest, id: string): Promise<HttpResponse> {
    await webhooks.remove(await site(request), id);
    return { status: 204, headers: {}, body: '' };
  }

  async function rotate(request: HttpRequest, id: string) {
    refuseFormBody(request);
    const rotated = await webhooks.rotateSecret(await site(request), id);
    return json(200, { secret: rotated.secret, previousSecretExpiresAt: iso(rotated.previousSecretExpiresAt) });
  }

  async function deliveries(request: HttpRequest, id: string) {
    const siteId = await site(request);
    const page = await webhooks.deliveries(siteId, id, { statuses: statusFilter(request), first: firstParam(request), after: request.query.get('after') });
    return json(200, { data: page.items.map(deliveryBody), hasMore: page.hasNextPage, nextCursor: page.hasNextPage ? page.endCursor : null });
  }

  async function redeliver(request: HttpRequest, id: string, deliveryId: string) {
    refuseFormBody(request);
    return json(202, deliveryBody(await webhooks.redeliver(await site(request), id, deliveryId)));
  }

  async function recover(request: HttpRequest, id: string) {
    const siteId = await site(request);
    const { recovered } = await webhooks.recover(siteId, id, await readJson(request));
    return json(202, { recovered });
  }

  async function test(request: HttpRequest, id: string) {
    // No body is read: the test event is the service's own (docs/merchant-webhooks.md#test-events).
    refuseFormBody(request);
    return json(202, deliveryBody(await webhooks.sendTest(await site(request), id)));
  }

  const styled = (handler: Route['handler']) => inStyle('platform', logger, handler);
  const base = '/v1/webhooks/endpoints';
  return [
    { method: 'POST', path: base, handler: styled(create) },
    { method: 'GET', path: base, handler: styled(list) },
    { method: 'GET', path: `${base}/:id`, handler: styled(get) },
    { method: 'PATCH', path: `${base}/:id`, handler: styled(update) },
    { method: 'DELETE', path: `${base}/:id`, handler: styled(remove) },
    { method: 'POST', path: `${base}/:id/rotate-secret`, handler: styled(rotate) },
    { method: 'GET', path: `${base}/:id/deliveries`, handler: styled(deliveries) },
    { method: 'POST', path: `${base}/:id/deliveries/:deliveryId/redeliver`, handler: styled(redeliver) },
    { method: 'POST', path: `${base}/:id/recover`, handler: styled(recover) },
    { method: 'POST', path: `${base}/:id/test`, handler: styled(test) },
  ];
}
