/**
 * Platform sites and their credentials (docs/platform.md#credentials): a site id and an API key stored only as a hash. Document 3's
 * calls present them as HTTP basic auth `siteId:apiKey`; the key is compared in constant time. The bootstrap site
 * comes from VENDOR_SITE_ID/VENDOR_API_KEY; each merchant created by POST /merchants is a new site.
 */
import type { Db } from '../db/database.ts';
import { findSite, insertSite, replaceMerchantKeyHash, upsertBootstrapSite } from './site-repository.ts';
import { hashToken, randomToken, tokenMatchesHash } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { ConfigError } from '../kernel/config-values.ts';

export interface Site {
  siteId: string;
  kind: 'bootstrap' | 'merchant';
  parentSiteId: string | null;
}

export interface NewSiteCredentials {
  siteId: string;
  /** Shown once, in the creation response; only its hash is stored. */
  apiKey: string;
}

export interface SiteService {
  /** Makes the bootstrap site match the configuration (run once at start). */
  /**
   * Stores the bootstrap site with this key. `keepStoredKey` (a generated key on a database that several instances
   * share): a site already stored keeps its key, and start-up is refused, since replacing it would lock out every
   * other instance's clients.
   */
  ensureBootstrap(siteId: string, apiKey: string, options?: { keepStoredKey?: boolean }): Promise<void>;
  /** The site these credentials belong to, or null (unknown site or wrong key, indistinguishable). */
  authenticate(siteId: string, apiKey: string): Promise<Site | null>;
  find(siteId: string): Promise<Site | null>;
  /** Creates a merchant site inside the caller's transaction (the merchant row commits with it). */
  createMerchantSite(trx: Db, parentSiteId: string): Promise<NewSiteCredentials>;
  /**
   * A new key for a merchant site, shown once; the old one stops working at once, on every instance (each request
   * reads the stored hash). Null when `siteId` is not a merchant's site: the bootstrap key is the configuration's.
   */
  replaceMerchantKey(siteId: string): Promise<NewSiteCredentials | null>;
}

export function createSiteService({ database, clock }: ServiceDeps): SiteService {
  const toSite = (row: { site_id: string; kind: string; parent_site_id: string | null }): Site => ({
    siteId: row.site_id,
    kind: row.kind === 'merchant' ? 'merchant' : 'bootstrap',
    parentSiteId: row.parent_site_id,
  });

  return {
    async ensureBootstrap(siteId, apiKey, options = {}) {
      if (options.keepStoredKey && (await findSite(database.db, siteId))) {
        throw new ConfigError('VENDOR_API_KEY', `unset, but site ${siteId} is already stored in this shared database with its own key; a generated key would replace the key every other instance and every platform client uses. Set VENDOR_API_KEY to that site's key, the same on every instance.`);
      }
      await upsertBootstrapSite(database.db, siteId, hashToken(apiKey), clock.now());
    },

    async authenticate(siteId, apiKey) {
      const row = await findSite(database.db, siteId);
      // Compare against a throwaway hash when the site is unknown, so both failures cost the same.
      const matches = tokenMatchesHash(apiKey, row?.api_key_hash ?? UNKNOWN_SITE_HASH);
      return row && matches ? toSite(row) : null;
    },

    async find(siteId) {
      const row = await findSite(database.db, siteId);
      return row ? toSite(row) : null;
    },

    async createMerchantSite(trx, parentSiteId) {
      const siteId = `site_${randomToken(12)}`;
      const apiKey = randomToken();
      await insertSite(trx, { site_id: siteId, api_key_hash: hashToken(apiKey), kind: 'merchant', parent_site_id: parentSiteId, created_at: clock.now() });
      return { siteId, apiKey };
    },

    async replaceMerchantKey(siteId) {
      const apiKey = randomToken();
      return (await replaceMerchantKeyHash(database.db, siteId, hashToken(apiKey))) ? { siteId, apiKey } : null;
    },
  };
}

const UNKNOWN_SITE_HASH = hashToken(randomToken());
