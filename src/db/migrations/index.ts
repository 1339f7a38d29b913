/**
 * The ordered list of migrations: a static provider, so no file-system scan or dynamic import is needed under
 * tsx or a bundler. Names sort in the order they run. Never edit a migration that has shipped; add the next one.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as orders from './0001-orders.ts';
import * as fulfilment from './0002-fulfilment.ts';
import * as sitesOutbox from './0003-sites-outbox.ts';
import * as payments from './0004-payments.ts';
import * as platform from './0005-platform.ts';
import * as claims from './0006-claims.ts';
import * as accountsPerSite from './0007-accounts-per-site.ts';
import * as exactEvidenceTokenOrigin from './0008-exact-evidence-token-origin.ts';
import * as outboxRedeliveries from './0009-outbox-redeliveries.ts';
import * as webhookEndpoints from './0010-webhook-endpoints.ts';
import * as sealedNetworkTokens from './0011-sealed-network-tokens.ts';
import * as clearNetworkTokensIndex from './0012-clear-network-tokens-index.ts';
import * as orderPayingSince from './0013-order-paying-since.ts';
import * as olderEndpointSecret from './0014-older-endpoint-secret.ts';
import * as keptCvcIndex from './0015-kept-cvc-index.ts';
import * as notificationTraceParent from './0016-notification-trace-parent.ts';
import * as redeliveryTraceParent from './0017-redelivery-trace-parent.ts';

const MIGRATIONS: Record<string, Migration> = {
  '0001-orders': orders,
  '0002-fulfilment': fulfilment,
  '0003-sites-outbox': sitesOutbox,
  '0004-payments': payments,
  '0005-platform': platform,
  '0006-claims': claims,
  '0007-accounts-per-site': accountsPerSite,
  '0008-exact-evidence-token-origin': exactEvidenceTokenOrigin,
  '0009-outbox-redeliveries': outboxRedeliveries,
  '0010-webhook-endpoints': webhookEndpoints,
  '0011-sealed-network-tokens': sealedNetworkTokens,
  '0012-clear-network-tokens-index': clearNetworkTokensIndex,
  '0013-order-paying-since': orderPayingSince,
  '0014-older-endpoint-secret': olderEndpointSecret,
  '0015-kept-cvc-index': keptCvcIndex,
  '0016-notification-trace-parent': notificationTraceParent,
  '0017-redelivery-trace-parent': redeliveryTraceParent,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
