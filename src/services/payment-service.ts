/**
 * Payments (issue 5): POST /api/payments with idempotency keys, the sandbox processor behind its port, refunds,
 * and card/wallet pay of sleeve orders. STUB: the payments issue replaces this file.
 */
import type { ServiceDeps } from './deps.ts';
import type { SiteService } from './site-service.ts';

/** What staff and the decision platform see of a payment (no card data). */
export interface PaymentSummary {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  status: 'succeeded' | 'declined' | 'failed';
  decision: string;
  createdAt: number;
}

export interface PaymentService {
  /** A payment by id; null when unknown. Used by the decision platform's `decideOrder` and the `payment` query. */
  find(id: string): Promise<PaymentSummary | null>;
}

export function createPaymentService(_deps: ServiceDeps & { sites: SiteService }): PaymentService {
  return {
    async find() {
      return null;
    },
  };
}
