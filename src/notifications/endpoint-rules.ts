/**
 * The rules of merchant webhook endpoints (docs/merchant-webhooks.md), with no I/O: event types and which path
 * each names, the input of creation, update and recovery checked field by field (400 for the wrong shape, 422 for a
 * value the rules refuse, docs/ordering.md#400-or-422), secrets, and the test event.
 */
import { randomBytes } from 'node:crypto';
import { DomainError, type FieldError } from '../kernel/errors.ts';
import { problemOf } from '../kernel/field-problem.ts';
import { NOTIFICATION_PATHS, type NotificationPath } from './notification-paths.ts';
import { isCalendarDay } from '../kernel/calendar-day.ts';

/** Document 2's paths without the slash. */
export type EventType = 'token-updated' | 'requestforevidencenotification' | 'accountupdatenotification' | 'orderstatusupdatenotification' | 'itemlistingrequestupdatenotification';
export const EVENT_TYPES = NOTIFICATION_PATHS.map((path) => path.slice(1)) as EventType[];

/**
 * The test event (docs/merchant-webhooks.md#test-events): POSTed to the endpoint's url + `/webhook-test`, signed like
 * every notification, sent to that one endpoint only. Not one of the five event types, so no filter refuses it.
 */
export const TEST_PATH = '/webhook-test';
export const TEST_EVENT_TYPE = 'webhook-test';

/** Why an endpoint its own site disabled is disabled (created so, or set so): no notice for staff, as the dispatcher's. */
export const DISABLED_BY_SITE = { created: 'Created disabled.', set: 'Disabled by the site.' } as const;

/** For 24 hours after a rotation both secrets sign (docs/merchant-webhooks.md#secret-rotation). */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export const DESCRIPTION_MAX = 500;
export const URL_MAX = 2048;

export const eventTypeOf = (path: string): string => path.slice(1);

/** Whether an endpoint with these event types (empty: all) takes a notification at `path`. */
export const takes = (eventTypes: readonly string[], path: NotificationPath): boolean => eventTypes.length === 0 || eventTypes.includes(eventTypeOf(path));

/** `whsec_` + base64 of 32 random bytes: what the standardwebhooks library takes. */
export const newSecret = (): string => 'whsec_' + randomBytes(32).toString('base64');

/** The HMAC key of a `whsec_…` secret: its base64-decoded part. */
export const secretBytes = (secret: string): Buffer => Buffer.from(secret.slice('whsec_'.length), 'base64');

export interface EndpointInput {
  url: string;
  description: string;
  eventTypes: EventType[];
  enabled: boolean;
}

const wrongShape = (errors: FieldError[]): never => {
  throw new DomainError('bad_request', errors.map((e) => `${e.field}: ${e.message}`).join(' '), { field: errors[0]!.field, errors });
};
const refused = (errors: FieldError[]): never => {
  throw new DomainError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join(' '), { field: errors[0]!.field, errors });
};

const ENDPOINT_FIELDS: ReadonlySet<string> = new Set(['url', 'description', 'eventTypes', 'enabled']);

/**
 * The fields of a creation (`partial` false: `url` required) or an update (`partial`: any of them). Every failing field
 * is listed; types first (400), then values (422). Unlike document 1's bodies, an unknown field is a 400 naming it
 * (docs/merchant-webhooks.md#endpoints): here a misspelled `eventTypes` would subscribe the endpoint to every event,
 * token bodies included, and a misspelled `enabled: false` would leave it on, each answered 2xx.
 */
export function parseEndpointInput(body: unknown, partial: boolean, hostRefusal: (url: URL) => string | null = () => null): Partial<EndpointInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) wrongShape([{ field: 'body', message: 'must be a JSON object.' }]);
  const input = body as Record<string, unknown>;
  const shape: FieldError[] = Object.keys(input)
    .filter((key) => !ENDPOINT_FIELDS.has(key))
    .map((key) => ({ field: key.slice(0, 60), message: `is not a field of an endpoint (url, description, eventTypes, enabled).` }));
  if (input.url === undefined ? !partial : typeof input.url !== 'string') shape.push({ field: 'url', message: `${problemOf(input.url, 'a string')}.` });
  if (input.description !== undefined && input.description !== null && typeof input.description !== 'string') shape.push({ field: 'description', message: 'must be a string.' });
  // null too: read as "no filter", a PATCH with it widened an endpoint to every event, token bodies included, answered 200.
  if (input.eventTypes !== undefined && !(Array.isArray(input.eventTypes) && input.eventTypes.every((t) => typeof t === 'string'))) {
    shape.push({ field: 'eventTypes', message: 'must be an array of strings ([] for every event type).' });
  }
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') shape.push({ field: 'enabled', message: 'must be true or false.' });
  if (shape.length > 0) wrongShape(shape);

  const values: FieldError[] = [];
  const out: Partial<EndpointInput> = {};
  if (typeof input.url === 'string') {
    const checked = checkUrl(input.url, hostRefusal);
    if (typeof checked === 'string') values.push({ field: 'url', message: checked });
    // As parsed (spaces around it and tabs or line breaks in it gone, the host in lower case), so what is stored and
    // shown is the address POSTed to: kept as typed, a pasted "  https://x/hook " was POSTed to /%20%20/…
    else out.url = checked.href.replace(/\/+$/u, '');
  }
  if (typeof input.description === 'string') {
    // Characters as a person counts them (code points): 500 emoji were refused as 1,000 UTF-16 units.
    if ([...input.description].length > DESCRIPTION_MAX) values.push({ field: 'description', message: `must be at most ${DESCRIPTION_MAX} characters.` });
    else out.description = input.description;
  } else if (input.description === null || (!partial && input.description === undefined)) out.description = '';
  if (Array.isArray(input.eventTypes)) {
    const unknown = (input.eventTypes as string[]).filter((t) => !(EVENT_TYPES as string[]).includes(t));
    if (unknown.length > 0) values.push({ field: 'eventTypes', message: `${unknown.map((t) => JSON.stringify(t.slice(0, 60))).join(', ')} not one of ${EVENT_TYPES.join(', ')}.` });
    else out.eventTypes = [...new Set(input.eventTypes as EventType[])];
  } else if (!partial) out.eventTypes = [];
  if (typeof input.enabled === 'boolean') out.enabled = input.enabled;
  else if (!partial) out.enabled = true;
  if (values.length > 0) refused(values);
  return out;
}

/** The endpoint's URL parsed, or what is wrong with it; `hostRefusal`: why its host may not be an endpoint (an address, a local name). */
function checkUrl(raw: string, hostRefusal: (url: URL) => string | null): URL | string {
  if (raw.length > URL_MAX) return `must be at most ${URL_MAX} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://.';
  if (url.username || url.password) return 'must not carry credentials.';
  if (url.port === '0') return 'must not name port 0: nothing listens there.';
  if (url.search || url.hash) return 'must not have a query or a fragment: each notification is POSTed to url + its path.';
  if (url.href.length > URL_MAX) return `must be at most ${URL_MAX} characters.`;
  const refusal = hostRefusal(url);
  return refusal === null ? url : `must be on the public internet: ${refusal}.`;
}

/** `{since}` of a recovery: an ISO 8601 date-time, not in the future. */
export function parseRecoverInput(body: unknown, now: number): number {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) wrongShape([{ field: 'body', message: 'must be a JSON object.' }]);
  // As the endpoint body: a field it does not take (`until`) is named, not silently ignored.
  const unknown = Object.keys(body as object).filter((key) => key !== 'since');
  if (unknown.length > 0) wrongShape(unknown.map((key) => ({ field: key.slice(0, 60), message: 'is not a field of a recover (since).' })));
  const since = (body as Record<string, unknown>).since;
  if (typeof since !== 'string') wrongShape([{ field: 'since', message: `${problemOf(since, 'an ISO 8601 date-time string')}.` }]);
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/u.test(since as string) && isCalendarDay((since as string).slice(0, 10)) ? Date.parse(since as string) : NaN;
  if (Number.isNaN(at)) refused([{ field: 'since', message: 'must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T00:00:00Z.' }]);
  if (at > now) refused([{ field: 'since', message: 'must not be in the future.' }]);
  return at;
}

/** The body of a test event: what it is, for which endpoint and site, and when it was asked for. */
export const testBody = (endpointId: string, siteId: string, now: number) =>
  JSON.stringify({ type: 'WEBHOOK_TEST', endpointId, siteId, timestamp: Math.floor(now / 1000) });
