/**
 * The bytes of a notification as they leave: the queued body plus what document 2 makes depend on the moment it is
 * sent (docs/notifications.md#decided-at-send-time). `/requestforevidencenotification` gets `uniqueMessageId` (the
 * outbox id, so a redelivery keeps it; docs/notifications.md#message-ids), `hoursLeftUntilDisputed` (int32 hours
 * from now to the end of `dueDate`, UTC) and `requestedEvidenceTypes` narrowed to the types the claim still misses
 * now: evidence given while the request waited (no endpoint, retries) is never asked for again, and a request with
 * nothing left to ask is not sent at all. Other bodies go out as queued.
 */
import type { EvidenceRequestBody } from './bodies.ts';

const HOUR = 3_600_000;
const INT32_MAX = 2_147_483_647;
export const EVIDENCE_PATH = '/requestforevidencenotification';

/** The end of a YYYY-MM-DD date in UTC: the last moment evidence counts. */
export function endOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`) + 24 * HOUR;
}

export function hoursLeftUntil(dueAt: number, now: number): number {
  return Math.min(INT32_MAX, Math.max(0, Math.floor((dueAt - now) / HOUR)));
}

/** The claim of an evidence request as it stands at send time; null when it is unknown (the body goes as queued). */
export interface ClaimNow {
  missingEvidenceTypes: readonly string[];
}

/** What to do with a due notification: send these bytes, or drop it, with the reason staff will read. */
export type AtSend = { send: string } | { drop: string };

/** The claim id an evidence request is about (the dispatcher looks its claim up before calling bodyAtSend). */
export function evidenceClaimId(path: string, body: string): number | null {
  if (path !== EVIDENCE_PATH) return null;
  const claimId = (JSON.parse(body) as Partial<EvidenceRequestBody>).claimId;
  return typeof claimId === 'number' ? claimId : null;
}

export function bodyAtSend(path: string, id: string, queuedBody: string, now: number, claim: ClaimNow | null = null): AtSend {
  if (path !== EVIDENCE_PATH) return { send: queuedBody };
  const body = JSON.parse(queuedBody) as EvidenceRequestBody;
  // Satisfied types never become missing again, so the types still missing are a subset of those queued.
  const requested = claim ? body.requestedEvidenceTypes.filter((type) => claim.missingEvidenceTypes.includes(type)) : body.requestedEvidenceTypes;
  if (requested.length === 0) {
    return { drop: `Not sent: claim ${body.claimId} had every evidence type this request asked for (${body.requestedEvidenceTypes.join(', ')}) by the time it was due.` };
  }
  return { send: JSON.stringify({ ...body, requestedEvidenceTypes: requested, hoursLeftUntilDisputed: hoursLeftUntil(endOfDate(body.dueDate), now), uniqueMessageId: id }) };
}
