/**
 * How the portal words an endpoint's health and a delivery's state (docs/merchant-webhooks.md#disabling-and-recovery):
 * pure functions of the REST answers, shared by the endpoint list and the endpoint's own view.
 */

/** "Nov 22, 5:19:40 PM" in the reader's own time zone. */
export const when = (iso) =>
  new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/**
 * `{ level: 'ok' | 'warn' | 'bad', label, detail }` for an endpoint. Disabled wins over failing, failing over
 * throttled; the detail says why (the server's own sentence: "The endpoint answered 410 Gone.") and since when,
 * in words a merchant can act on.
 */
export function endpointHealth(endpoint, now = Date.now()) {
  if (!endpoint.enabled) {
    const reason = endpoint.disabledReason ? endpoint.disabledReason.replace(/([^.])$/u, '$1.') : 'Disabled.';
    return {
      level: 'bad',
      label: 'Disabled',
      detail: `Disabled: ${reason} Nothing is sent to it and its undelivered messages are kept: enable it, then recover them.`,
    };
  }
  if (endpoint.failingSince) {
    return { level: 'bad', label: 'Failing', detail: `Enabled, but every attempt has failed since ${when(endpoint.failingSince)}.` };
  }
  if (endpoint.throttledUntil && Date.parse(endpoint.throttledUntil) > now) {
    return { level: 'warn', label: 'Throttled', detail: `Enabled; paused until ${when(endpoint.throttledUntil)} as your receiver asked (Retry-After).` };
  }
  return { level: 'ok', label: 'Healthy', detail: 'Enabled and delivering.' };
}

/** "All event types" or the chosen ones, comma separated. */
export function eventTypesText(eventTypes) {
  return eventTypes?.length ? eventTypes.join(', ') : 'All event types';
}

/** One attempt in a line: "200 in 12 ms", "500 in 40 ms", "no answer (timeout)". */
export function attemptText(attempt) {
  const duration = attempt.durationMs === undefined || attempt.durationMs === null ? '' : ` in ${attempt.durationMs} ms`;
  if (attempt.statusCode === null || attempt.statusCode === undefined) return `No answer${attempt.error ? ` (${attempt.error})` : ''}${duration}`;
  return `${attempt.statusCode}${duration}`;
}

/** `PENDING` → "Pending". */
export const statusText = (status) => status.charAt(0) + status.slice(1).toLowerCase();
