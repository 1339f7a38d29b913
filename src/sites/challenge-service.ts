/**
 * The processor's webhook URL verification (document 2 §4 `GET /webhooks/processor/{siteId}/{accountId}`,
 * docs/notifications.md#processor-verification-webhook): for a known site and account and a challenge of 20–32 lowercase hex characters, the answer is
 * `PUBLIC_KEY|HEX`, HEX the lowercase hex HMAC-SHA1 of the challenge keyed with the raw SHA-1 digest of
 * PROCESSOR_PRIVATE_KEY — the scheme common processor SDKs verify. Anything else is unauthorized.
 */
import { createHash, createHmac } from 'node:crypto';
import { DomainError } from '../kernel/errors.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { SiteService } from './site-service.ts';

/** What the challenge asks of the areas that hold accounts: the decision platform's accounts, the sleeve orders. */
export interface KnownAccounts {
  platform: { account(accountId: string): Promise<unknown> };
  orders: { holdsEmail(email: string): Promise<boolean> };
}

const CHALLENGE = /^[0-9a-f]{20,32}$/u;

export function challengeResponse(challenge: string, publicKey: string, privateKey: string): string {
  const key = createHash('sha1').update(privateKey, 'utf8').digest();
  return `${publicKey}|${createHmac('sha1', key).update(challenge, 'utf8').digest('hex')}`;
}

/**
 * "A known account" (docs/notifications.md#processor-verification-webhook): an account the decision platform holds (decided by its engine or reviewed by
 * staff), or the email of a sleeve order. Platform accounts are not kept per site, so the site is checked
 * separately (it must exist). The one place to change what counts.
 */
export async function isKnownAccount(known: KnownAccounts, _siteId: string, accountId: string): Promise<boolean> {
  if ((await known.platform.account(accountId)) !== null) return true;
  return known.orders.holdsEmail(accountId);
}

export interface WebhookChallengeService {
  /** The text/plain answer, or an `unauthorized` DomainError. */
  answer(siteId: string, accountId: string, challenge: string | null): Promise<string>;
}

export function createWebhookChallengeService(deps: ServiceDeps & KnownAccounts & { sites: SiteService }): WebhookChallengeService {
  const { config, sites } = deps;
  return {
    async answer(siteId, accountId, challenge) {
      const known = challenge !== null && CHALLENGE.test(challenge) && (await sites.find(siteId)) !== null && (await isKnownAccount(deps, siteId, accountId));
      if (!known) throw new DomainError('unauthorized', 'Unauthorized.');
      return challengeResponse(challenge, config.processorPublicKey, config.processorPrivateKey);
    },
  };
}
