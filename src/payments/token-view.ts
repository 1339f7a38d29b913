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

/** Document 2 `/token-updated`; `updatedFields` holds the new values as strings. */
export function tokenUpdatedBody(
  token: string,
  row: VaultTokenRow,
  source: 'ACCOUNT_UPDATER' | 'NETWORK_TOKEN_PROVISIONING',
  updatedFields: Partial<Record<UpdatedField, string>>,
  now: number,
): TokenUpdatedBody {
  return {
    token,
    card: { bin: row.bin ?? '', lastFourDigits: row.last_four ?? '', expiration: mmyy(row.exp_month, row.exp_year), state: 'ACTIVE' },
    ...(row.network_token_status === 'ACTIVE' && row.network_token
      ? {
          networkToken: {
            networkToken: row.network_token,
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
