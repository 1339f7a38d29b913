/**
 * What one attempt at a merchant's endpoint sends (docs/merchant-webhooks.md#signing-per-endpoint): the bytes decided
 * at send time (docs/notifications.md#decided-at-send-time) and the headers signed with the endpoint's secrets. Each
 * sealed secret is opened once, and its HMAC key decoded once, not per attempt (delivery-job.ts sends thousands a
 * second to one endpoint). A service of the delivery job's (it asks the disputes area and opens sealed values),
 * not a pure rule.
 */
import type { KeyObject } from 'node:crypto';
import type { Services } from '../services.ts';
import type { DeliveryRow } from './delivery-repository.ts';
import type { EndpointRow } from './endpoint-repository.ts';
import type { notificationBodies } from './outbox-repository.ts';
import { bodyToSend, openSecret } from './sealed-body.ts';
import { bodyAtSend, evidenceClaimId, type AtSend } from './send-time.ts';
import { endpointBodySignature, endpointHeaders, endpointKey } from './signing.ts';

export type Message = Awaited<ReturnType<typeof notificationBodies>>[number];

/**
 * A body or secret no key of this instance opens (sealed under another VAULT_KEY, or damaged): the delivery is not
 * sent, and that is recorded as its attempt. Anything else failing meanwhile (the read of an evidence request's claim,
 * when the database does not answer) is no attempt: the delivery's lease runs out and it is sent again.
 */
export class UnopenedError extends Error {
  override readonly name = 'UnopenedError';
}

function orUnopened<T>(open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw new UnopenedError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Secrets' keys kept at most: a rotated secret is another sealed value, so old ones are dropped in bulk. */
const OPENED_MAX = 4096;

export interface DeliveryRequests {
  /** The bytes to send now: a test event's own body, or the message's, opened and narrowed at send time. */
  bodyAt(row: DeliveryRow, message: Message | null, now: number): Promise<AtSend>;
  /** The headers of `body` at `endpoint`, signed with its secrets now (both during a rotation's overlap). */
  headers(row: DeliveryRow, endpoint: EndpointRow, body: string, now: number): Record<string, string>;
  clear(): void;
}

export function createDeliveryRequests(services: Pick<Services, 'disputes'>): DeliveryRequests {
  /** HMAC keys by their secret's sealed value. */
  const opened = new Map<string, KeyObject>();

  function open(sealed: string): KeyObject {
    let key = opened.get(sealed);
    if (key === undefined) {
      key = orUnopened(() => endpointKey(openSecret(sealed))); // throws when no key of this instance opens it: nothing cached
      if (opened.size >= OPENED_MAX) opened.clear();
      opened.set(sealed, key);
    }
    return key;
  }

  /** The keys of the endpoint's secrets now: the current one, then each replaced less than 24 hours ago, newest first. */
  function secretsOf(endpoint: EndpointRow, now: number): KeyObject[] {
    const secrets = [open(endpoint.secret_sealed)];
    if (endpoint.previous_secret_sealed && endpoint.previous_secret_until != null && Number(endpoint.previous_secret_until) > now) secrets.push(open(endpoint.previous_secret_sealed));
    if (endpoint.older_secret_sealed && endpoint.older_secret_until != null && Number(endpoint.older_secret_until) > now) secrets.push(open(endpoint.older_secret_sealed));
    return secrets;
  }

  return {
    async bodyAt(row, message, now) {
      if (row.body !== null) return { send: row.body };
      if (!message) return { drop: 'The message is gone.' };
      const queued = orUnopened(() => bodyToSend(message.body));
      const claimId = evidenceClaimId(message.path, queued);
      if (claimId === null) return bodyAtSend(message.path, message.id, queued, now, null);
      return bodyAtSend(message.path, message.id, queued, now, await services.disputes.claims.find(claimId));
    },
    headers(row, endpoint, body, now) {
      const secrets = secretsOf(endpoint, now);
      const headers = endpointHeaders(row.message_id, now, body, secrets);
      // Document 2's own header, like webhook-signature one value per secret, space separated (the new secret's
      // first): with the new one's alone, a receiver still on the old secret refused every token update for the
      // rotation's 24 hours (docs/merchant-webhooks.md#secret-rotation).
      if (row.path === '/token-updated') headers.signature = secrets.map((key) => endpointBodySignature(body, key)).join(' ');
      return headers;
    },
    clear: () => opened.clear(),
  };
}
