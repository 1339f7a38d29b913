/** Platform sites (migration 0003): a site authenticates document 3's calls with its id and API key. */

export interface SiteTable {
  site_id: string;
  /** sha256 of the API key; the key itself is shown once and never stored. */
  api_key_hash: string;
  /** `bootstrap` (VENDOR_SITE_ID) or `merchant` (created by POST /merchants). */
  kind: string;
  /** The site that created this one (a merchant's provider site); null for the bootstrap site. */
  parent_site_id: string | null;
  created_at: number;
}

export interface SiteTables {
  sites: SiteTable;
}
