/** Kysely queries for claims and their evidence (migration 0006). Rows in, rows out; `db` may be a transaction. */
import type { Insertable, Selectable } from 'kysely';
import type { ClaimRow, ClaimEvidenceTable, ClaimStatus, ClaimTable } from './claim-tables.ts';
import type { Db } from '../db/database.ts';

export type { ClaimRow };
export type EvidenceRow = Selectable<ClaimEvidenceTable>;

/** Hands out the next int64 claim id; inside the creating transaction, so the counter's row lock serializes it. */
export async function nextClaimId(db: Db): Promise<number> {
  const row = await db
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'claim_id')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function insertClaim(db: Db, row: Insertable<ClaimTable>): Promise<void> {
  await db.insertInto('claims').values(row).execute();
}

export async function findClaim(db: Db, claimId: number, lock = false): Promise<ClaimRow | undefined> {
  const query = db.selectFrom('claims').selectAll().where('claim_id', '=', claimId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** One page by claim id ascending, after `afterId`. */
export async function listClaims(db: Db, { afterId, limit }: { afterId?: number; limit: number }): Promise<ClaimRow[]> {
  let query = db.selectFrom('claims').selectAll();
  if (afterId !== undefined) query = query.where('claim_id', '>', afterId);
  return query.orderBy('claim_id', 'asc').limit(limit).execute();
}

export async function countClaims(db: Db): Promise<number> {
  return Number((await db.selectFrom('claims').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

export async function insertEvidence(db: Db, rows: Array<Insertable<ClaimEvidenceTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('claim_evidence').values(rows).execute();
}

/** The evidence types each claim has received, by file or by data points (one query for a page of claims). */
export async function satisfiedTypes(db: Db, claimIds: readonly number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>(claimIds.map((id) => [id, []]));
  if (claimIds.length === 0) return result;
  const rows = await db
    .selectFrom('claim_evidence')
    .select(['claim_id', 'evidence_type'])
    .distinct()
    .where('claim_id', 'in', claimIds)
    .orderBy('evidence_type')
    .execute();
  for (const row of rows) result.get(Number(row.claim_id))?.push(row.evidence_type);
  return result;
}

export async function updateClaim(db: Db, claimId: number, change: { status: ClaimStatus; nextReminderAt: number | null; now: number }): Promise<void> {
  await db
    .updateTable('claims')
    .set({ status: change.status, next_reminder_at: change.nextReminderAt, updated_at: change.now })
    .where('claim_id', '=', claimId)
    .execute();
}

/** Open claims whose reminder is due, earliest first. */
export async function dueReminders(db: Db, now: number, limit: number): Promise<ClaimRow[]> {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('status', '=', 'OPEN')
    .where('next_reminder_at', '<=', now)
    .where('due_at', '>', now)
    .orderBy('next_reminder_at', 'asc')
    .limit(limit)
    .execute();
}

/**
 * Moves a claim's reminder from `expected` to `next`, only if it is still `expected`: the conditional update that
 * makes one instance (or one sweep) send each reminder, whoever else races for it.
 */
export async function takeReminder(db: Db, claimId: number, expected: number, next: number | null, now: number): Promise<boolean> {
  const result = await db
    .updateTable('claims')
    .set({ next_reminder_at: next, updated_at: now })
    .where('claim_id', '=', claimId)
    .where('status', '=', 'OPEN')
    .where('next_reminder_at', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Open claims past the end of their due date become EXPIRED (conditional, so once however many sweep). */
export async function expireClaims(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('claims')
    .set({ status: 'EXPIRED', next_reminder_at: null, updated_at: now })
    .where('status', '=', 'OPEN')
    .where('due_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The next moment a reminder or an expiry is due, for the scheduler's timer. */
export async function nextClaimWork(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('claims')
    .select((eb) => [eb.fn.min('next_reminder_at').as('reminder'), eb.fn.min('due_at').as('due')])
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  const times = [row?.reminder, row?.due].filter((t) => t != null).map(Number);
  return times.length > 0 ? Math.min(...times) : null;
}

/**
 * Who owns what a claim's orderId names (issue 7: a sleeve order or a payment): whether it is a sleeve order's number,
 * and the sites of the payments whose id or merchant orderId it is (null: a sleeve order's payment, no site of its own).
 * And the order id the claim keeps: a payment's own `orderId` when it was named by its id, so one payment's claims
 * name one order whatever staff typed.
 */
export async function claimableOrderOwners(db: Db, orderId: string): Promise<{ sleeveOrder: boolean; paymentSites: Array<string | null>; orderId: string }> {
  let sleeveOrder = false;
  if (/^[0-9]{1,15}$/u.test(orderId)) {
    sleeveOrder = (await db.selectFrom('orders').select('order_number').where('order_number', '=', Number(orderId)).executeTakeFirst()) !== undefined;
  }
  const payments = await db
    .selectFrom('payments')
    .select(['id', 'site_id', 'order_id'])
    .where((w) => w.or([w('id', '=', orderId), w('order_id', '=', orderId)]))
    .execute();
  const named = payments.find((row) => row.id === orderId);
  return { sleeveOrder, paymentSites: [...new Set(payments.map((row) => row.site_id))], orderId: named?.order_id ?? orderId };
}

/** The files stored as a claim's evidence, oldest first (docs/notifications.md#evidence-files). */
export async function evidenceFiles(db: Db, claimId: number): Promise<EvidenceRow[]> {
  return db
    .selectFrom('claim_evidence')
    .selectAll()
    .where('claim_id', '=', claimId)
    .where('kind', '=', 'FILE')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
