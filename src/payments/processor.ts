/**
 * The processor port (DESIGN: payments/ holds the port and the sandbox behind it). The gateway calls it outside any
 * transaction: reserve (tx) → charge → record (tx). Every charge carries the gateway's idempotency key (the payment
 * id): calling again with the same key never charges again, it reports the first charge — this is how an unknown
 * outcome is reconciled (docs/platform.md#sandbox-processor).
 */

export type ChargeSource = { kind: 'card'; cardNumber: string; cvc: string | null } | { kind: 'wallet' };

export interface ChargeRequest {
  idempotencyKey: string;
  amount: number;
  currency: string;
  source: ChargeSource;
}

/** `error`: the processor refused to process (nothing charged); a retry may succeed. */
export type ChargeResult = { outcome: 'succeeded'; chargeId: string } | { outcome: 'declined' } | { outcome: 'error' };

/** The call's outcome is unknown (a timeout): it may have charged. Retry with the same idempotency key. */
export class ProcessorTimeout extends Error {
  override readonly name = 'ProcessorTimeout';
}

export interface Processor {
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Refunds a charge in full; refunding it again changes nothing. */
  refund(chargeId: string): Promise<void>;
}
