/**
 * Which site MERCHANT_ENDPOINT serves (docs/merchant-webhooks.md#the-bootstrap-endpoint): the bootstrap site's
 * notifications are its outbox rows, sent exactly as before; every other site's are sent only to that site's own
 * endpoints. queueNotification runs inside other areas' transactions with no config, so the notifications area
 * registers VENDOR_SITE_ID here once per gateway (as sealed-body.ts does the vault key); tests build several
 * gateways in one process, each with its own random site id, so every one registered is kept.
 */
const bootstrapSites = new Set<string>();

export function useBootstrapSite(siteId: string): void {
  bootstrapSites.add(siteId);
}

export const isBootstrapSite = (siteId: string): boolean => bootstrapSites.has(siteId);
