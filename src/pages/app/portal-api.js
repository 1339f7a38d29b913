/**
 * The portal's calls to the endpoint API (docs/merchant-webhooks.md#endpoints): REST on this origin with
 * `Authorization: Basic siteId:apiKey`. `credentials: 'omit'` keeps the browser from answering a 401's
 * WWW-Authenticate with its own password prompt (the page shows the refusal itself) and sends no cookie.
 * A refusal becomes an Error carrying the answer's status and the platform body's message and field errors, worded once.
 */

const BASE = '/v1/webhooks/endpoints';

/** What the portal calls the fields the API names in a refusal. */
const FIELD_LABELS = { url: 'URL', description: 'Description', eventTypes: 'Event types', since: 'Since' };

/**
 * A refusal in words for the page. The API's message often is its field errors joined ("url: must be …"): then each
 * field is said once, by its label. A field error the message already says is left out ("The endpoint is disabled…"
 * then "enabled: the endpoint is disabled."). The disabled-endpoint refusal tells an API client how to PATCH; the
 * portal tells the merchant what to do instead.
 */
function refusalText(status, body) {
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  if (status === 422 && errors.some((e) => e.field === 'enabled')) return 'The endpoint is disabled: enable it (Edit, then Enabled) to send again.';
  const message = body?.message ?? `The server answered ${status}.`;
  const label = (e) => `${FIELD_LABELS[e.field] ?? e.field} ${e.message}`;
  if (errors.length && message === errors.map((e) => `${e.field}: ${e.message}`).join(' ')) return errors.map(label).join(' ');
  const said = message.toLowerCase();
  const unsaid = errors.filter((e) => !said.includes(String(e.message).toLowerCase().replace(/\.$/u, '')));
  return [message, ...unsaid.map(label)].join(' ');
}

export class ApiError extends Error {
  constructor(status, body) {
    super(refusalText(status, body));
    this.status = status;
    this.errors = body?.errors ?? [];
  }
}

/** `siteId:apiKey` as a Basic credential; UTF-8 safe (btoa alone takes Latin-1 only). */
function basic(siteId, apiKey) {
  const bytes = new TextEncoder().encode(`${siteId}:${apiKey}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * `whenRefused(handler)`: from then on a 401 on any call (the key was replaced or revoked meanwhile) calls `handler`
 * besides throwing; the first call, which checks the key at sign-in, is refused on the form instead.
 */
export function createPortalApi(siteId, apiKey) {
  const authorization = basic(siteId, apiKey);
  let onRefused = null;

  async function call(method, path, body) {
    const headers = { authorization, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(`${BASE}${path}`, {
        method,
        headers,
        credentials: 'omit',
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, { message: 'The server could not be reached. Check your connection and try again.' });
    }
    const text = await response.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (response.status === 401) onRefused?.();
    if (!response.ok) throw new ApiError(response.status, parsed);
    return parsed;
  }

  const one = (id) => `/${encodeURIComponent(id)}`;
  /** `?status=…&after=…` of the values given (an empty one is left out). */
  const query = (params) => {
    const search = new URLSearchParams(Object.entries(params).filter(([, value]) => value)).toString();
    return search ? `?${search}` : '';
  };
  return {
    siteId,
    whenRefused: (handler) => { onRefused = handler; },
    list: async () => (await call('GET', '')).data,
    get: (id) => call('GET', one(id)),
    create: (fields) => call('POST', '', fields),
    update: (id, fields) => call('PATCH', one(id), fields),
    remove: (id) => call('DELETE', one(id)),
    rotate: (id) => call('POST', `${one(id)}/rotate-secret`),
    test: (id) => call('POST', `${one(id)}/test`),
    redeliver: (id, deliveryId) => call('POST', `${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
    recover: (id, since) => call('POST', `${one(id)}/recover`, { since }),
    /** One page of deliveries, newest first: `{data, hasMore, nextCursor}`; `after` is an earlier page's nextCursor. */
    deliveryPage: (id, { status, after } = {}) => call('GET', `${one(id)}/deliveries${query({ status, after })}`),
  };
}
