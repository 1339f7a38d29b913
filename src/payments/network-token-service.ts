/**
 * Upgrade to multi-use with network token provisioning (document 3 upgrade, docs/platform.md#upgrade-and-network-tokens): `async: false` provisions
 * at once (`created: true`); `async: true` answers `created: false` and leaves a row due `NETWORK_TOKEN_DELAY_MS`
 * later, which the sweep provisions once and announces with /token-updated (source NETWORK_TOKEN_PROVISIONING).
 */
import type { CardInfo } from './card-data.ts';
import type { AppDatabase } from '../db/database.ts';
import * as vault from './vault-repository.ts';
import type { Clock } from '../kernel/clock.ts';
import type { EventBus } from '../events/event-bus.ts';
import { announceQueued, queueNotification, type Queued } from '../notifications/outbox-service.ts';
import { randomToken } from '../kernel/tokens.ts';
import type { Site } from '../sites/site-service.ts';
import { parseUpgrade, type TokenReference } from './token-input.ts';
import { tokenUpdatedBody } from './token-view.ts';
import { transaction } from '../db/transaction.ts';

/** Network tokens in the clear sealed per sweep: a backlog is sealed batch after batch, never holding up a start. */
const SEAL_BATCH = 100;

/** How long the sandbox network takes to provision a token asynchronously. */
export const NETWORK_TOKEN_DELAY_MS = 2_000;

export interface NetworkTokens {
  upgrade(site: Site, body: unknown): Promise<Record<string, unknown>>;
  provisionDue(): Promise<number>;
  nextProvisionDue(): Promise<number | null>;
  /**
   * Seals a batch of the network tokens still in the clear (stored before migration 0011, or by an older instance
   * during a rolling upgrade), so no operator step is needed for them: how many it sealed, and whether more are left.
   */
  sealClearTokens(): Promise<{ sealed: number; more: boolean }>;
  /** Calls `listener` with the due time of each async provisioning this instance queues. */
  onProvisionQueued(listener: (due: number) => void): () => void;
}

const cardInfoOf = (row: vault.VaultTokenRow): CardInfo => ({
  bin: row.bin!,
  lastFourDigits: row.last_four!,
  cardBrand: row.brand!,
  expirationMonth: Number(row.exp_month),
  expirationYear: Number(row.exp_year),
});

/**
 * The sandbox network's token: random, never card-shaped; valid three years. It stands in for the card number, so
 * the row gets it sealed like the card data, never in the clear (`network_token` NULL), as
 * docs/platform.md#upgrade-and-network-tokens says; `networkToken` is the clear value, for the /token-updated body.
 */
function provision(now: number, seal: (plaintext: string) => string) {
  const networkToken = `ntk_${randomToken(16)}`;
  const expiry = new Date(now);
  const fields = {
    network_token: null,
    network_token_sealed: seal(networkToken),
    network_token_par: `PAR${randomToken(18).toUpperCase().replace(/[^A-Z0-9]/gu, '0')}`.slice(0, 29),
    network_token_exp_month: expiry.getUTCMonth() + 1,
    network_token_exp_year: expiry.getUTCFullYear() + 3,
  };
  return { networkToken, fields };
}

export function createNetworkTokens(deps: {
  /** The database itself, not a transaction: provisioning opens its own. */
  db: AppDatabase['db'];
  clock: Clock;
  bus: EventBus;
  /** The token in plaintext, from the sealed row. */
  tokenOf(row: vault.VaultTokenRow): string;
  /** The vault's sealing under the current VAULT_KEY (vault-crypto.ts), the card data's own. */
  seal(plaintext: string): string;
  resolve(site: Site, ref: TokenReference): Promise<vault.VaultTokenRow>;
}): NetworkTokens {
  const { db, clock, bus, tokenOf, seal, resolve } = deps;
  const listeners = new Set<(due: number) => void>();

  return {
    async upgrade(site, body) {
      const input = parseUpgrade(body);
      const row = await resolve(site, input.ref);
      const now = clock.now();
      let status = row.network_token_status;
      if (input.networkToken?.provision && status === 'NONE') {
        status = input.networkToken.async ? 'PENDING' : 'ACTIVE';
        const due = now + NETWORK_TOKEN_DELAY_MS;
        await vault.updateToken(db, row.token_hash, {
          multi_use: 1,
          network_token_status: status,
          updated_at: now,
          ...(status === 'ACTIVE' ? provision(now, seal).fields : { network_token_due: due }),
        });
        if (status === 'PENDING') for (const listener of listeners) listener(due);
      } else {
        await vault.updateToken(db, row.token_hash, { multi_use: 1, updated_at: now });
      }
      return {
        token: tokenOf(row),
        ...(input.networkToken?.provision ? { networkTokenStatus: { created: status === 'ACTIVE' } } : {}),
        cardInfo: cardInfoOf(row),
      };
    },

    async provisionDue() {
      const now = clock.now();
      const queued: Queued[] = [];
      for (const row of await vault.dueProvisioning(db, now, 100)) {
        const { networkToken, fields } = provision(now, seal);
        const notification = await transaction(db, async (trx) => {
          // Conditional on PENDING: another sweeper may have provisioned it a moment ago.
          if (!(await vault.markProvisioned(trx, row.token_hash, { ...fields, updated_at: now }))) return null;
          const token = tokenOf(row);
          const updatedFields = {
            networkTokenState: 'ACTIVE',
            networkTokenExpirationMonth: String(fields.network_token_exp_month),
            networkTokenExpirationYear: String(fields.network_token_exp_year),
            paymentAccountReference: fields.network_token_par,
          };
          const provisioned = { ...row, ...fields, network_token_status: 'ACTIVE' };
          const body = tokenUpdatedBody({ token, networkToken }, provisioned, 'NETWORK_TOKEN_PROVISIONING', updatedFields, now);
          return queueNotification(trx, '/token-updated', body, { subject: token, now: now, site: row.site_id ?? undefined });
        });
        if (notification) queued.push(notification);
      }
      announceQueued(bus, queued);
      return queued.length;
    },

    nextProvisionDue: () => vault.nextProvisioningDue(db),

    async sealClearTokens() {
      const rows = await vault.clearNetworkTokens(db, SEAL_BATCH);
      let sealed = 0;
      // A sealed value beside the clear one is the one read (token-view.ts): it stays, and the clear one goes.
      for (const row of rows) {
        if (await vault.sealClearNetworkToken(db, row, row.network_token_sealed ?? seal(row.network_token))) sealed += 1;
      }
      return { sealed, more: rows.length === SEAL_BATCH };
    },

    onProvisionQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
