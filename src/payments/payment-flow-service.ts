/**
 * The one pay flow (DESIGN: reserve (tx) → call the processor (no tx) → record (tx)), taken by a sleeve order's card
 * or wallet pay, by POST /api/payments and by the reconciliation sweep. The processor call carries the payment id
 * as its idempotency key, so running the flow again for a payment whose outcome is unknown reconciles it and never
 * charges twice (docs/platform.md#sandbox-processor). What a caller must change with the outcome (the order paid, the key's stored
 * response) is its `settle`, run inside the record transaction.
 */
import type { Clock } from '../kernel/clock.ts';
import type { AppDatabase, Db } from '../db/database.ts';
import { findPayment, recordOutcome, updatePayment, type PaymentRow } from './payment-repository.ts';
import type { PaymentStatus } from './payment-tables.ts';
import * as vault from './vault-repository.ts';
import type { Logger } from '../kernel/logger.ts';
import { ProcessorTimeout, type ChargeSource, type Processor } from './processor.ts';
import type { VaultCrypto } from './vault-crypto.ts';
import type { SealedCard } from './token-view.ts';
import { transaction } from '../db/transaction.ts';

/** A `pending` payment older than this lost its caller (a crash mid-call); it is reconciled like `unknown`. */
export const STALE_PENDING_MS = 60_000;

export type Outcome = { status: Exclude<PaymentStatus, 'pending'>; chargeId: string | null };

/**
 * The outcomes that say the processor is in trouble, not the card: the operator's business, so a `warn` each (an
 * outage showed before in no line above `info`).
 */
const PROCESSOR_TROUBLE = {
  failed: 'payment recorded: the processor answered an error (nothing charged)',
  unknown: 'payment recorded: no answer from the processor (reconciliation settles it)',
} as const;

/** Runs inside the record transaction, with the payment as recorded. */
export type Settle<T> = (trx: Db, row: PaymentRow) => Promise<T>;

export interface Recorded<T> {
  row: PaymentRow;
  /** What `settle` returned (undefined without one). */
  settled: T | undefined;
  /**
   * Another caller recorded this payment's outcome first (this one was stalled past STALE_PENDING_MS and its payment
   * claimed): `row` is that outcome, `settle` did not run here, and nothing may be refunded for it here.
   */
  recordedElsewhere?: true;
}

export interface PaymentFlow {
  /**
   * Reserve → charge → record. `reserve` runs in a transaction and returns the payment to take forward: a new
   * `pending` one, one already `declined` by a decision (nothing is charged), or an earlier one whose outcome is not
   * known (asked again under its own key). Null: nothing to do; `run` returns null.
   */
  run<T>(reserve: (trx: Db) => Promise<PaymentRow | null>, settle?: Settle<T>): Promise<Recorded<T> | null>;
  /** Calls the processor for a reserved payment. Never inside a transaction. */
  charge(payment: PaymentRow): Promise<Outcome>;
  /** Records the outcome (and `settle` in the same transaction); erases the CVC; frees a token nothing was charged on. */
  record<T>(payment: PaymentRow, outcome: Outcome, settle?: Settle<T>): Promise<Recorded<T>>;
}

export function createPaymentFlow(deps: { db: AppDatabase['db']; clock: Clock; logger: Logger; crypto: VaultCrypto; processor: Processor }): PaymentFlow {
  const { db, clock, logger, crypto, processor } = deps;

  async function sourceOf(payment: PaymentRow): Promise<ChargeSource> {
    if (payment.method === 'wallet') return { kind: 'wallet' };
    const row = payment.token_hash ? await vault.findToken(db, payment.token_hash) : undefined;
    if (!row) throw new Error(`payment ${payment.id} has no card token`);
    const sealed = JSON.parse(crypto.open(row.sealed)) as SealedCard;
    return { kind: 'card', cardNumber: sealed.cardNumber!, cvc: row.cvc_sealed ? crypto.open(row.cvc_sealed) : null };
  }

  /** A reserved payment's outcome: asked of the processor unless the row already says it. */
  function outcomeOf(payment: PaymentRow): Promise<Outcome> | Outcome {
    if (payment.status === 'pending' || payment.status === 'unknown') return flow.charge(payment);
    return { status: payment.status, chargeId: payment.charge_id };
  }

  const flow: PaymentFlow = {
    async run(reserve, settle) {
      const payment = await transaction(db, reserve);
      if (!payment) return null;
      return flow.record(payment, await outcomeOf(payment), settle);
    },

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

    async record<T>(payment: PaymentRow, outcome: Outcome, settle?: Settle<T>): Promise<Recorded<T>> {
      const now = clock.now();
      const open = payment.status === 'pending' || payment.status === 'unknown';
      const done = await transaction(db, async (trx): Promise<Recorded<T>> => {
        const change = { status: outcome.status, charge_id: outcome.chargeId, updated_at: now };
        // Only over an outcome not yet known: a stalled caller's late `unknown` (or its copy of the same charge) must
        // not undo what the retry that claimed its payment recorded, nor settle (and then refund) it a second time.
        const row = open ? await recordOutcome(trx, payment.id, change) : await updatePayment(trx, payment.id, change);
        if (!row) return { row: (await findPayment(trx, payment.id))!, settled: undefined, recordedElsewhere: true };
        if (payment.token_hash) {
          await vault.eraseCvc(trx, payment.token_hash);
          if (outcome.status === 'failed') await vault.releaseToken(trx, payment.token_hash, payment.id);
        }
        return { row, settled: settle ? await settle(trx, row) : undefined };
      });
      if (done.recordedElsewhere) logger.warn('payment already recorded by another caller; its outcome stands', { paymentId: payment.id, status: done.row.status });
      else if (outcome.status in PROCESSOR_TROUBLE) logger.warn(PROCESSOR_TROUBLE[outcome.status as keyof typeof PROCESSOR_TROUBLE], { paymentId: payment.id, status: outcome.status });
      else logger.info('payment recorded', { paymentId: payment.id, status: outcome.status });
      return done;
    },
  };
  return flow;
}
