/**
 * The bytes of a notification as they leave: the stored body plus the fields document 2 defines at send time.
 * `/requestforevidencenotification` gets `uniqueMessageId` (the outbox id, so a redelivery keeps it; docs/notifications.md#message-ids)
 * and `hoursLeftUntilDisputed` (int32 hours from now to the end of `dueDate`, UTC). Other bodies go out as stored.
 */
import type { EvidenceRequestBody } from './bodies.ts';

const HOUR = 3_600_000;
const INT32_MAX = 2_147_483_647;

/** The end of a YYYY-MM-DD date in UTC: the last moment evidence counts. */
export function endOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`) + 24 * HOUR;
}

export function hoursLeftUntil(dueAt: number, now: number): number {
  return Math.min(INT32_MAX, Math.max(0, Math.floor((dueAt - now) / HOUR)));
}

export function bodyAtSend(path: string, id: string, storedBody: string, now: number): string {
  if (path !== '/requestforevidencenotification') return storedBody;
  const body = JSON.parse(storedBody) as EvidenceRequestBody;
  return JSON.stringify({ ...body, hoursLeftUntilDisputed: hoursLeftUntil(endOfDate(body.dueDate), now), uniqueMessageId: id });
}
