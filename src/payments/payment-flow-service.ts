/**
 * The steps every payment takes (DESIGN: reserve (tx) → call the processor (no tx) → record (tx)), shared by
 * /api/payments and sleeve order pay. The processor call carries the payment id as its idempotency key, so calling
 * again for an `unknown` payment reconciles it and never charges twice (CONTRACT §3).
 */
import type { Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { updatePayment, type PaymentRow } from './payment-repository.ts';
import type { PaymentStatus } from './payment-tables.ts';
import * as vault from './vault-repository.ts';
import type { Logger } from '../kernel/logger.ts';
import { ProcessorTimeout, type ChargeSource, type Processor } from './processor.ts';
import type { VaultCrypto } from './vault-crypto.ts';
import type { SealedCard } from './tokenization-service.ts';

/** A `pending` payment older than this lost its caller (a crash mid-call); it is reconciled like `unknown`. */
export const STALE_PENDING_MS = 60_000;

export type Outcome = { status: Exclude<PaymentStatus, 'pending'>; chargeId: string | null };

export interface PaymentFlow {
  /** Calls the processor for a reserved payment. Never inside a transaction. */
  charge(payment: PaymentRow): Promise<Outcome>;
  /** Records the outcome (and `alsoDo` in the same transaction); erases the CVC; frees a token nothing was charged on. */
  record<T>(payment: PaymentRow, outcome: Outcome, alsoDo?: (trx: Db, row: PaymentRow) => Promise<T>): Promise<{ row: PaymentRow; extra: T | undefined }>;
}

export function createPaymentFlow(deps: { db: Db; clock: Clock; logger: Logger; crypto: VaultCrypto; processor: Processor }): PaymentFlow {
  const { db, clock, logger, crypto, processor } = deps;

  async function sourceOf(payment: PaymentRow): Promise<ChargeSource> {
    if (payment.method === 'wallet') return { kind: 'wallet' };
    const row = payment.token_hash ? await vault.findToken(db, payment.token_hash) : undefined;
    if (!row) throw new Error(`payment ${payment.id} has no card token`);
    const sealed = JSON.parse(crypto.open(row.sealed)) as SealedCard;
    return { kind: 'card', cardNumber: sealed.cardNumber!, cvc: row.cvc_sealed ? crypto.open(row.cvc_sealed) : null };
  }

  return {
    async charge(payment) {
      try {
        const result = await processor.charge({ idempotencyKey: payment.id, amount: Number(payment.amount), currency: payment.currency, source: await sourceOf(payment) });
        if (result.outcome === 'succeeded') return { status: 'succeeded', chargeId: result.chargeId };
        return { status: result.outcome === 'declined' ? 'declined' : 'failed', chargeId: null };
      } catch (error) {
        // Anything but a clear answer may have charged: the outcome is unknown until a retry asks again.
        if (!(error instanceof ProcessorTimeout)) logger.error('processor call failed', { paymentId: payment.id, error });
        return { status: 'unknown', chargeId: null };
      }
    },

    async record(payment, outcome, alsoDo) {
      const now = clock.now();
      const done = await db.transaction().execute(async (trx) => {
        const row = (await updatePayment(trx, payment.id, { status: outcome.status, charge_id: outcome.chargeId, updated_at: now }))!;
        if (payment.token_hash) {
          await vault.eraseCvc(trx, payment.token_hash);
          if (outcome.status === 'failed') await vault.releaseToken(trx, payment.token_hash, payment.id);
        }
        return { row, extra: alsoDo ? await alsoDo(trx, row) : undefined };
      });
      logger.info('payment recorded', { paymentId: payment.id, status: outcome.status });
      return done;
    },
  };
}
