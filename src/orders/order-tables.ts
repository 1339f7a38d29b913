/**
 * The orders area's tables (migrations 0001, 0002), as kysely sees them. Times are epoch milliseconds in `bigint`
 * columns, so one migration runs on SQLite and PostgreSQL alike.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export interface CounterTable {
  name: string;
  value: number;
}

export interface SleeveOptionSetTable {
  version: number;
  /** JSON of SleeveOptionSetInput. */
  body: string;
  created_at: number;
}

export interface SettingTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface OrderTable {
  order_number: number;
  email: string;
  /** The trimmed, lower-cased email while the order holds it; NULL once cancelled (the unique index frees it). */
  email_key: string | null;
  name: string;
  size: string;
  font: string;
  thread: string;
  stitch_text: string;
  status: string;
  hold_until: number;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
  payment_method: string | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  version: Generated<number>;
  /** Set by the move to `ready` (migration 0002). */
  ready_at: number | null;
  collected_at: number | null;
  /** The collector's name as they gave it at pickup. */
  collected_by: string | null;
  /** When the card or wallet payment in flight started; NULL when none is (migration 0013). */
  paying_since: number | null;
}

export interface OrderPayTokenTable {
  token_hash: string;
  order_number: number;
  created_at: number;
  /** Answered by the create, or with a duplicate; only duplicate ones rotate out (migration 0008, docs/ordering.md#pay-tokens-on-a-duplicate). */
  origin: PayTokenOrigin;
}

export type PayTokenOrigin = 'create' | 'duplicate';

export interface OrderPaymentTable {
  id: string;
  order_number: number;
  method: string;
  amount_cents: number;
  currency: string;
  status: string;
  created_at: number;
}

export interface OrderTables {
  counters: CounterTable;
  sleeve_option_sets: SleeveOptionSetTable;
  settings: SettingTable;
  orders: OrderTable;
  order_pay_tokens: OrderPayTokenTable;
  order_payments: OrderPaymentTable;
}

export type OrderRow = Selectable<OrderTable>;
export type NewOrderRow = Insertable<OrderTable>;
export type OrderPaymentRow = Selectable<OrderPaymentTable>;
