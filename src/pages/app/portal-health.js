/**
 * How the portal words an endpoint's health and a delivery's state (docs/merchant-webhooks.md#disabling-and-recovery):
 * pure functions of the REST answers, shared by the endpoint list and the endpoint's own view.
 */

/** "Nov 22, 5:19:40 PM" in the reader's own time zone, with the year when it is not this one. */
export function when(iso, now = Date.now()) {
  const at = new Date(iso);
  const year = at.getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' };
  return at.toLocaleString(undefined, { ...year, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });
}

/**
 * `{ level: 'ok' | 'warn' | 'bad', label, detail }` for an endpoint. Disabled wins over throttled, throttled over
 * failing: a 429 or 503 that asks for a pause also starts the failure run, so with failing first "Throttled" and
 * when sending resumes were never shown. The detail says why (the server's own sentence: "The endpoint answered
 * 410 Gone.") and since when, in words a merchant can act on.
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
  if (endpoint.throttledUntil && Date.parse(endpoint.throttledUntil) > now) {
    const failing = endpoint.failingSince ? ` Every attempt has failed since ${when(endpoint.failingSince, now)}.` : '';
    return { level: 'warn', label: 'Throttled', detail: `Enabled; paused until ${when(endpoint.throttledUntil, now)} as your receiver asked (Retry-After).${failing}` };
  }
  if (endpoint.failingSince) {
    return { level: 'bad', label: 'Failing', detail: `Enabled, but every attempt has failed since ${when(endpoint.failingSince, now)}.` };
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

/**
 * What an attempt's answer said: its excerpt, with the error first when the answer had a status too (a redirect's
 * "redirect to …, not followed": most redirects carry an HTML body that hid where they pointed).
 */
export function responseText(attempt) {
  if (attempt.statusCode != null && attempt.error) return attempt.responseExcerpt ? `${attempt.error} — ${attempt.responseExcerpt}` : attempt.error;
  return attempt.responseExcerpt || attempt.error || '—';
}

/** `PENDING` → "Pending". */
export const statusText = (status) => status.charAt(0) + status.slice(1).toLowerCase();
