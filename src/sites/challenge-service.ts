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
  platform: { account(address: { siteId: string; accountId: string }): Promise<unknown> };
  orders: { holdsEmail(email: string): Promise<boolean> };
}

const CHALLENGE = /^[0-9a-f]{20,32}$/u;

export function challengeResponse(challenge: string, publicKey: string, privateKey: string): string {
  const key = createHash('sha1').update(privateKey, 'utf8').digest();
  return `${publicKey}|${createHmac('sha1', key).update(challenge, 'utf8').digest('hex')}`;
}

/**
 * "A known account" (docs/notifications.md#processor-verification-webhook) of `siteId`: an account the decision
 * platform holds for that very site (decided by its engine or reviewed by staff; accounts are per site,
 * docs/platform.md#accounts-per-site), or, for the bootstrap site alone, the email of a sleeve order (sleeve orders
 * are the bootstrap site's, docs/merchant-webhooks.md#ownership). Another site can therefore probe neither. The one
 * place to change what counts.
 */
export async function isKnownAccount(known: KnownAccounts, site: { siteId: string; bootstrap: boolean }, accountId: string): Promise<boolean> {
  if ((await known.platform.account({ siteId: site.siteId, accountId })) !== null) return true;
  return site.bootstrap && known.orders.holdsEmail(accountId);
}

export interface WebhookChallengeService {
  /** The text/plain answer, or an `unauthorized` DomainError. */
  answer(siteId: string, accountId: string, challenge: string | null): Promise<string>;
}

export function createWebhookChallengeService(deps: ServiceDeps & KnownAccounts & { sites: SiteService }): WebhookChallengeService {
  const { config, sites } = deps;
  return {
    async answer(siteId, accountId, challenge) {
      const site = challenge !== null && CHALLENGE.test(challenge) ? await sites.find(siteId) : null;
      // The bootstrap site is the one VENDOR_SITE_ID names now (docs/platform.md#credentials).
      const known = site !== null && (await isKnownAccount(deps, { siteId, bootstrap: site.kind === 'bootstrap' && siteId === config.vendorSiteId }, accountId));
      if (!known || challenge === null) throw new DomainError('unauthorized', 'Unauthorized.');
      return challengeResponse(challenge, config.processorPublicKey, config.processorPrivateKey);
    },
  };
}
