/**
 * How the portal words an endpoint's health and a delivery's state (docs/merchant-webhooks.md#disabling-and-recovery):
 * pure functions of the REST answers, shared by the endpoint list and the endpoint's own view.
 */

/**
 * "Nov 22, 5:19:40 PM EST" in the reader's own time zone, with the year when it is not this one. The zone's short
 * name is in every time: a merchant comparing with a receiver's logs (often UTC) must not have to guess it.
 */
export function when(iso, now = Date.now()) {
  const at = new Date(iso);
  const year = at.getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' };
  return at.toLocaleString(undefined, { ...year, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/gu;

/**
 * The server's reason for disabling, as a merchant reads it: a time in it formatted like every other time here, and
 * no operator setting in brackets. Reasons are stored, so those written before the server worded them for merchants
 * ("failed since 2026-12-04T04:34:19.221Z (ENDPOINT_DISABLE_AFTER)") are still read; it ends with a full stop.
 */
function disabledReasonText(reason, now) {
  return reason.replace(ISO_TIME, (iso) => when(iso, now)).replace(/\s*\([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\)/gu, '').replace(/([^.])$/u, '$1.');
}

/**
 * `{ level: 'ok' | 'warn' | 'bad', label, detail }` for an endpoint. Disabled wins over throttled, throttled over
 * failing: a 429 or 503 that asks for a pause also starts the failure run, so with failing first "Throttled" and
 * when sending resumes were never shown. The detail says why (the server's own sentence: "The endpoint answered
 * 410 Gone.") and since when, in words a merchant can act on.
 */
export function endpointHealth(endpoint, now = Date.now()) {
  if (!endpoint.enabled) {
    const reason = endpoint.disabledReason ? disabledReasonText(endpoint.disabledReason, now) : '';
    // "Disabled by the site." says it already: "Disabled: Disabled by the site." read it twice.
    const why = /\bdisabled\b/iu.test(reason) ? reason : `Disabled${reason ? `: ${reason}` : '.'}`;
    return {
      level: 'bad',
      label: 'Disabled',
      detail: `${why} Nothing is sent to it and its undelivered messages are kept: enable it, then recover them.`,
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

/**
 * One attempt in a line: "200 in 12 ms", "500 in 40 ms", "No answer (connection refused) in 3 ms". A timeout's error
 * says it all ("no answer within 10 s"), and its duration is that timeout: said once, without "No answer (…) in 10001 ms".
 */
export function attemptText(attempt) {
  const duration = attempt.durationMs === undefined || attempt.durationMs === null ? '' : ` in ${attempt.durationMs} ms`;
  if (attempt.statusCode === null || attempt.statusCode === undefined) {
    if (/^no answer\b/iu.test(attempt.error ?? '')) return attempt.error.charAt(0).toUpperCase() + attempt.error.slice(1);
    return `No answer${attempt.error ? ` (${attempt.error})` : ''}${duration}`;
  }
  return `${attempt.statusCode}${duration}`;
}

/**
 * What an attempt's answer said: its excerpt, with the error first when the answer had a status too (a redirect's
 * "redirect to …, not followed": most redirects carry an HTML body that hid where they pointed). Without a status
 * the error is already in attemptText's line, so it is not repeated here.
 */
export function responseText(attempt) {
  if (attempt.statusCode != null && attempt.error) return attempt.responseExcerpt ? `${attempt.error} — ${attempt.responseExcerpt}` : attempt.error;
  return attempt.responseExcerpt || '—';
}

/**
 * When a PENDING delivery is sent next, in words; '' for any other status. The later of its own nextAttemptAt and the
 * endpoint's throttledUntil (a Retry-After holds every delivery, whatever its own time says); nothing is sent to a
 * disabled endpoint, so there it waits for the endpoint, not for a time. A delivery due now, or never attempted on an
 * endpoint that is sending, is being sent (due, or in flight: the API does not tell the two apart).
 */
export function nextText(delivery, endpoint, now = Date.now()) {
  if (delivery.status !== 'PENDING') return '';
  if (endpoint && !endpoint.enabled) return 'waits until the endpoint is enabled';
  const own = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) : now;
  const held = endpoint?.throttledUntil ? Date.parse(endpoint.throttledUntil) : 0;
  // Never attempted and not held: its nextAttemptAt, when later than now, is the end of the lease of the try in flight.
  if (delivery.attempts.length === 0 && held <= now) return 'being sent';
  const at = Math.max(own, held);
  return at <= now ? 'being sent' : `next ${when(new Date(at).toISOString(), now)}`;
}

/** `PENDING` → "Pending". */
export const statusText = (status) => status.charAt(0) + status.slice(1).toLowerCase();
