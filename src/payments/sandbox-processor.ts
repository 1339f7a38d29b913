/**
 * The sandbox processor (docs/platform.md#sandbox-processor): 4000000000000002 is declined; 4000000000000119 answers a processor
 * error; 4000000000000259 charges but the call times out (the gateway learns the outcome only by asking again with
 * the same idempotency key); any other number — and every wallet confirmation — succeeds. It plays an outside
 * system, so its ledger is its own table: it survives restarts and is shared by every instance.
 */
import type { Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/database.ts';
import { timeOrderedId } from '../kernel/tokens.ts';
import { findSandboxCharge, insertSandboxCharge, refundSandboxCharge } from './sandbox-charge-repository.ts';
import { ProcessorTimeout, type ChargeRequest, type ChargeResult, type Processor } from './processor.ts';

export const SANDBOX_CARDS = {
  declined: '4000000000000002',
  processorError: '4000000000000119',
  timeoutAfterCharge: '4000000000000259',
} as const;

export function createSandboxProcessor(db: Db, clock: Clock): Processor {
  async function recorded(key: string): Promise<ChargeResult | null> {
    const row = await findSandboxCharge(db, key);
    if (!row) return null;
    return row.outcome === 'succeeded' ? { outcome: 'succeeded', chargeId: row.charge_id } : { outcome: 'declined' };
  }

  async function record(request: ChargeRequest, outcome: 'succeeded' | 'declined'): Promise<ChargeResult> {
    const chargeId = timeOrderedId('ch_');
    try {
      const { idempotencyKey, amount, currency } = request;
      await insertSandboxCharge(db, { idem_key: idempotencyKey, charge_id: chargeId, outcome, amount, currency, refunded_amount: 0, created_at: clock.now() });
    } catch (error) {
      // The same key at the same moment from elsewhere: the first one's outcome is the outcome.
      if (isUniqueViolation(error)) return (await recorded(request.idempotencyKey))!;
      throw error;
    }
    return outcome === 'succeeded' ? { outcome, chargeId } : { outcome };
  }

  return {
    async charge(request) {
      const earlier = await recorded(request.idempotencyKey);
      if (earlier) return earlier;
      const number = request.source.kind === 'card' ? request.source.cardNumber : null;
      if (number === SANDBOX_CARDS.processorError) return { outcome: 'error' };
      if (number === SANDBOX_CARDS.declined) return record(request, 'declined');
      const result = await record(request, 'succeeded');
      if (number === SANDBOX_CARDS.timeoutAfterCharge) throw new ProcessorTimeout('the processor did not answer in time');
      return result;
    },

    async refund(chargeId) {
      await refundSandboxCharge(db, chargeId);
    },
  };
}
