/** Staff RELEASE/CANCEL decisions on orders and payments (migration 0005): one per order, by its primary key. */
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { OrderDecisionTable } from './risk-tables.ts';

export type OrderDecisionRow = Selectable<OrderDecisionTable>;

export async function findOrderDecision(db: Db, ref: string): Promise<OrderDecisionRow | undefined> {
  return db.selectFrom('order_decisions').selectAll().where('ref', '=', ref).executeTakeFirst();
}

export async function insertOrderDecision(db: Db, row: OrderDecisionRow): Promise<void> {
  await db.insertInto('order_decisions').values(row).execute();
}
