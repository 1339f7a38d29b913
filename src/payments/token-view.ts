/** What leaves the vault about a token: masked card info and its state (docs/platform.md#card-data-at-rest), and the /token-updated body. */
import type { UpdatedField } from '../notifications/bodies.ts';
import type { TokenUpdatedBody } from '../notifications/bodies.ts';
import type { VaultTokenRow } from './payment-tables.ts';

/** What a vault token's `sealed` column holds, once opened. */
export interface SealedCard {
  token: string;
  cardNumber?: string;
  cardHolderName?: string;
}

export interface TokenView {
  /**
   * The vault's key for the token (sha256 of it, payment-tables.ts): names the token for GraphQL's TokenInfo.id
   * without revealing it (docs/graphql.md#object-identity).
   */
  tokenHash: string;
  kind: 'card' | 'wallet';
  bin: string | null;
  lastFourDigits: string | null;
  cardBrand: string | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  cardHolderName: string | null;
  multiUse: boolean;
  /** A single-use token already spent on a payment. */
  used: boolean;
  networkTokenStatus: string;
  aliases: Array<{ key: string; value: string }>;
  orderNumber: string | null;
  createdAt: number;
}

const num = (v: number | null) => (v === null ? null : Number(v));

export function toTokenView(row: VaultTokenRow, sealed: SealedCard, aliases: TokenView['aliases']): TokenView {
  return {
    tokenHash: row.token_hash,
    kind: row.kind,
    bin: row.bin,
    lastFourDigits: row.last_four,
    cardBrand: row.brand,
    expirationMonth: num(row.exp_month),
    expirationYear: num(row.exp_year),
    cardHolderName: sealed.cardHolderName ?? null,
    multiUse: row.multi_use === 1,
    used: row.used_by_payment !== null,
    networkTokenStatus: row.network_token_status,
    aliases,
    orderNumber: row.order_number === null ? null : String(row.order_number),
    createdAt: Number(row.created_at),
  };
}

/** MMYY as document 2 writes `expiration`. */
const mmyy = (month: number | null, year: number | null) => String(Number(month)).padStart(2, '0') + String(Number(year) % 100).padStart(2, '0');

/**
 * A row's network token in the clear, for the /token-updated body only (docs/platform.md#upgrade-and-network-tokens):
 * sealed since migration 0011; a row provisioned before (or by an older instance) keeps it in `network_token` until
 * the network-token job seals it (NetworkTokens.sealClearTokens), and is still read from there. `open` is the
 * vault's (vault-crypto.ts), so this file stays free of keys.
 */
export function networkTokenOf(row: VaultTokenRow, open: (sealed: string) => string): string | null {
  return row.network_token_sealed !== null ? open(row.network_token_sealed) : row.network_token;
}

/**
 * Document 2 `/token-updated`; `updatedFields` holds the new values as strings. The token and the network token come
 * in the clear beside the row, which keeps them sealed (networkTokenOf reads the network token, sealed or legacy).
 */
export function tokenUpdatedBody(
  secrets: { token: string; networkToken: string | null },
  row: VaultTokenRow,
  source: 'ACCOUNT_UPDATER' | 'NETWORK_TOKEN_PROVISIONING',
  updatedFields: Partial<Record<UpdatedField, string>>,
  now: number,
): TokenUpdatedBody {
  return {
    token: secrets.token,
    card: { bin: row.bin ?? '', lastFourDigits: row.last_four ?? '', expiration: mmyy(row.exp_month, row.exp_year), state: 'ACTIVE' },
    ...(row.network_token_status === 'ACTIVE' && secrets.networkToken
      ? {
          networkToken: {
            networkToken: secrets.networkToken,
            expiration: mmyy(row.network_token_exp_month, row.network_token_exp_year),
            paymentAccountReference: row.network_token_par ?? '',
            state: 'ACTIVE',
          },
        }
      : {}),
    source,
    updatedFields,
    timestamp: String(now),
  };
}
