/**
 * The sandbox processor's own ledger (migration 0004, `sandbox_charges`): it plays an outside system, so what it
 * charged survives restarts and is shared by every instance, keyed by the caller's idempotency key.
 */
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import type { SandboxChargeTable } from './payment-tables.ts';

export async function findSandboxCharge(db: Db, idemKey: string): Promise<{ outcome: string; charge_id: string } | undefined> {
  return (await findChargeQuery(db, { idemKey })).rows[0];
}

// Every charge: compiled once (src/db/compiled-once.ts: no value changes their shape).
const findChargeQuery = compiledOnce((db: Db, v: { idemKey: string }) => db.selectFrom('sandbox_charges').select(['outcome', 'charge_id']).where('idem_key', '=', v.idemKey));

/** Throws a unique violation when the key was charged meanwhile (see `isUniqueViolation`). */
export async function insertSandboxCharge(db: Db, row: Insertable<SandboxChargeTable>): Promise<void> {
  await insertChargeQuery(db, row);
}

const insertChargeQuery = compiledOnce((db: Db, row: Insertable<SandboxChargeTable>) => db.insertInto('sandbox_charges').values(row));

/** Refunds a succeeded charge in full; a second refund changes nothing. */
export async function refundSandboxCharge(db: Db, chargeId: string): Promise<void> {
  await db
    .updateTable('sandbox_charges')
    .set((eb) => ({ refunded_amount: eb.ref('amount') }))
    .where('charge_id', '=', chargeId)
    .where('outcome', '=', 'succeeded')
    .execute();
}
