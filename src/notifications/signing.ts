/**
 * Notification signatures (docs/notifications.md#signatures). `/token-updated` carries `signature`: lowercase hex HMAC-SHA256 of the
 * exact body bytes, keyed with MERCHANT_SIGNING_KEY (document 2 §5 leaves the algorithm "not shown"). Every
 * notification also carries the Standard Webhooks headers, which the public `standardwebhooks` library verifies
 * with the secret `whsec_` + base64(MERCHANT_SIGNING_KEY): `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { secretBytes } from './endpoint-rules.ts';

/** The `signature` header of `/token-updated`. */
export function bodySignature(body: string, signingKey: string): string {
  return createHmac('sha256', signingKey).update(body, 'utf8').digest('hex');
}

/** The secret a receiver gives to `new Webhook(secret)` of the standardwebhooks library. */
export function standardWebhooksSecret(signingKey: string): string {
  return 'whsec_' + Buffer.from(signingKey, 'utf8').toString('base64');
}

/**
 * `webhook-id` is the outbox id (kept across retries and redeliveries, so a receiver can drop duplicates);
 * `webhook-timestamp` is the send time in seconds.
 */
export function standardWebhooksHeaders(id: string, sentAtMs: number, body: string, signingKey: string): Record<string, string> {
  const timestamp = Math.floor(sentAtMs / 1000);
  const mac = createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` };
}

/** The HMAC key of a `whsec_…` secret (its decoded bytes, as the standardwebhooks library keys it), made once per secret. */
export const endpointKey = (secret: string): KeyObject => createSecretKey(secretBytes(secret));

/**
 * An endpoint's headers (docs/merchant-webhooks.md#signing-per-endpoint): `webhook-signature` with the key of each of
 * its `whsec_…` secrets (endpointKey); during a rotation the new secret's first, then the old one's, space separated.
 */
export function endpointHeaders(id: string, sentAtMs: number, body: string, keys: readonly KeyObject[]): Record<string, string> {
  const timestamp = Math.floor(sentAtMs / 1000);
  const signatures = keys.map((key) => 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64'));
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}

/** `signature` of `/token-updated` at an endpoint: lowercase hex HMAC-SHA256 keyed with the current secret's key. */
export function endpointBodySignature(body: string, key: KeyObject): string {
  return createHmac('sha256', key).update(body, 'utf8').digest('hex');
}
