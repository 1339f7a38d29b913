/**
 * Payments, the card vault, tokens and idempotency keys (issue 5): table shapes as kysely sees them (migration 0004).
 * Card data never sits here in plaintext (docs/platform.md#card-data-at-rest): the number, holder name, the token itself
 * and its network token are sealed with AES-256-GCM (src/payments/vault-crypto.ts); a keyed hash finds a card without
 * decrypting it.
 */

import type { Selectable } from 'kysely';

/** A vault token: a card (tokenize, or the pay page) or a sandbox wallet confirmation (`kind = wallet`). */
export interface VaultTokenTable {
  /** sha256 of the token: the lookup key. The token itself is only inside `sealed`. */
  token_hash: string;
  kind: 'card' | 'wallet';
  /** The site that created it; null for a token the pay page created for one order. */
  site_id: string | null;
  /** The sleeve order a pay-page token is bound to (docs/platform.md#pay-page-tokens); null otherwise. */
  order_number: number | null;
  /** Sealed JSON `{ token, cardNumber?, cardHolderName? }`. */
  sealed: string;
  /** HMAC-SHA256 of the card number under the vault's fingerprint key; null for wallet tokens. */
  fingerprint: string | null;
  bin: string | null;
  last_four: string | null;
  brand: string | null;
  exp_month: number | null;
  exp_year: number | null;
  /** Sealed CVC, erased (null) once the payment it serves is recorded. */
  cvc_sealed: string | null;
  /** JSON text of `extra` (map) and `customerId` (object), as given at tokenize. */
  extra: string | null;
  customer_id: string | null;
  /** 0: pays once; 1 after upgrade. */
  multi_use: number;
  /** The payment a single-use token is reserved by; released again when that payment failed without a charge. */
  used_by_payment: string | null;
  /** `NONE`, `PENDING` (async provisioning due at network_token_due), `ACTIVE`. */
  network_token_status: string;
  network_token_due: number | null;
  /**
   * A network token provisioned before migration 0011 (or by an older instance), in the clear; null for every one
   * provisioned since, and for these once the network-token job has sealed them
   * (docs/platform.md#upgrade-and-network-tokens).
   */
  network_token: string | null;
  /** The network token sealed like the card data (it stands in for the card number); null until provisioned. */
  network_token_sealed: string | null;
  network_token_par: string | null;
  network_token_exp_month: number | null;
  network_token_exp_year: number | null;
  created_at: number;
  updated_at: number;
}

export interface TokenAliasTable {
  site_id: string;
  alias_key: string;
  alias_value: string;
  token_hash: string;
}

/** `pending` while the processor is being called; `unknown` when that call's outcome was not learned. */
export type PaymentStatus = 'pending' | 'unknown' | 'succeeded' | 'declined' | 'failed';

export interface PaymentTable {
  id: string;
  site_id: string | null;
  /** The caller's orderId; for a sleeve order its order number. */
  order_id: string;
  order_number: number | null;
  amount: number;
  currency: string;
  method: 'card' | 'wallet';
  status: PaymentStatus;
  decision: string;
  token_hash: string | null;
  /** The processor's charge id once it charged. */
  charge_id: string | null;
  /** Epoch ms of the refund; null while not refunded. */
  refunded_at: number | null;
  created_at: number;
  updated_at: number;
}

/** docs/platform.md#idempotency-keys, per site: the first request's fingerprint and, once known, its response. */
export interface IdempotencyKeyTable {
  site_id: string;
  idem_key: string;
  /** sha256 of the canonical request body. */
  fingerprint: string;
  /** `processing` (claimed), `done` (response stored), `retryable` (the outcome was unknown; a retry may claim it). */
  state: string;
  payment_id: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: number;
  updated_at: number;
}

/** The sandbox processor's own ledger (it plays an outside system): one row per processor idempotency key. */
export interface SandboxChargeTable {
  idem_key: string;
  charge_id: string;
  outcome: 'succeeded' | 'declined';
  amount: number;
  currency: string;
  refunded_amount: number;
  created_at: number;
}

export interface PaymentTables {
  vault_tokens: VaultTokenTable;
  token_aliases: TokenAliasTable;
  payments: PaymentTable;
  idempotency_keys: IdempotencyKeyTable;
  sandbox_charges: SandboxChargeTable;
}

export type VaultTokenRow = Selectable<VaultTokenTable>;

export type PaymentRow = Selectable<PaymentTable>;
