/** What staff, the decision platform and POST /api/payments see of a payment: never card data beyond the masked card. */
import type { PaymentRow, VaultTokenRow } from './payment-tables.ts';

/** What staff and the decision platform see of a payment (no card data). */
export interface PaymentSummary {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  /** `pending`: the processor's answer is not known yet (a retry reconciles it). */
  status: 'succeeded' | 'declined' | 'failed' | 'pending';
  decision: string;
  createdAt: number;
}

export interface PaymentView extends PaymentSummary {
  method: 'card' | 'wallet';
  refundedAt: number | null;
  orderNumber: string | null;
  /** The site that made it (its basic auth); null for a sleeve order's payment (the bootstrap site's). */
  siteId: string | null;
  /** The card paid with, masked (bin, last four, brand); null for a wallet. */
  card: { bin: string; lastFourDigits: string; cardBrand: string } | null;
}

export function toPaymentView(row: PaymentRow, token?: VaultTokenRow): PaymentView {
  return {
    id: row.id,
    orderId: row.order_id,
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status === 'unknown' ? 'pending' : row.status,
    decision: row.decision,
    createdAt: Number(row.created_at),
    method: row.method,
    refundedAt: row.refunded_at === null ? null : Number(row.refunded_at),
    orderNumber: row.order_number === null ? null : String(row.order_number),
    siteId: row.site_id,
    card: token?.bin && token.last_four && token.brand ? { bin: token.bin, lastFourDigits: token.last_four, cardBrand: token.brand } : null,
  };
}

/** The created payment, as docs/platform.md#payments shapes it: the answer of POST /api/payments, kept for its key. */
export const createdBody = (p: PaymentView): Record<string, unknown> => ({
  id: p.id,
  orderId: p.orderId,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  decision: p.decision,
  createdAt: new Date(p.createdAt).toISOString(),
});
