/**
 * The portal's calls to the endpoint API (docs/merchant-webhooks.md#endpoints): REST on this origin with
 * `Authorization: Basic siteId:apiKey`. `credentials: 'omit'` keeps the browser from answering a 401's
 * WWW-Authenticate with its own password prompt (the page shows the refusal itself) and sends no cookie.
 * A refusal becomes an Error carrying the answer's status and the platform body's message and field errors.
 */

const BASE = '/v1/webhooks/endpoints';

export class ApiError extends Error {
  constructor(status, body) {
    const fields = Array.isArray(body?.errors) ? body.errors.map((e) => `${e.field}: ${e.message}`) : [];
    super([body?.message ?? `The server answered ${status}.`, ...fields].join(' '));
    this.status = status;
    this.errors = body?.errors ?? [];
  }
}

/** `siteId:apiKey` as a Basic credential; UTF-8 safe (btoa alone takes Latin-1 only). */
function basic(siteId, apiKey) {
  const bytes = new TextEncoder().encode(`${siteId}:${apiKey}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createPortalApi(siteId, apiKey) {
  const authorization = basic(siteId, apiKey);

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
