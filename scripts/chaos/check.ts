/**
 * The end-of-run check of the chaos ledger against the database and the merchant's receiver. A loss is: a success the
 * client saw that the database does not hold in the right state; a charge without its succeeded payment (or the
 * reverse); the charge that paid an order refunded; an order charged twice; a hold still awaiting payment past its
 * deadline; a vault card whose state is neither what the client was last told nor what each of its site's endpoints
 * was last told; and what check-endpoints.ts finds (a committed notification not delivered to every endpoint owed it,
 * or delivered where it was not). Duplicate deliveries are counted, not losses (at least once).
 */
import type { AppDatabase } from '../../src/db/database.ts';
import { hashToken } from '../../src/kernel/tokens.ts';
import { checkEndpoints, label } from './check-endpoints.ts';
import { takes, type ChaosEndpoint } from './endpoints.ts';
import type { Ledger } from './ledger.ts';
import type { ChaosReceiver } from './receiver.ts';

export interface Verdict {
  losses: number;
  lines: string[];
}

const AFTER_PAYMENT = ['received', 'in progress', 'ready', 'collected'];

/** `faults` says what was done to the servers ("12 kills"), for the first line. */
export async function checkLedger(database: AppDatabase, ledger: Ledger, receiver: ChaosReceiver, endpoints: ChaosEndpoint[], faults: string): Promise<Verdict> {
  const { db } = database;
  const problems: string[] = [];
  const orders = new Map((await db.selectFrom('orders').select(['order_number', 'status', 'hold_until']).execute()).map((o) => [String(o.order_number), o]));
  for (const entry of ledger.orders.values()) {
    const order = orders.get(entry.orderNumber);
    if (!order) problems.push(`order ${entry.orderNumber}: created (201) but not in the database`);
    else if (entry.paid && !AFTER_PAYMENT.includes(order.status)) problems.push(`order ${entry.orderNumber}: paid (200) but ${order.status}`);
    else if (entry.advancedTo && AFTER_PAYMENT.indexOf(order.status) < AFTER_PAYMENT.indexOf(entry.advancedTo)) problems.push(`order ${entry.orderNumber}: moved to ${entry.advancedTo} but ${order.status}`);
  }
  const now = Date.now();
  const overdue = [...orders.values()].filter((o) => o.status === 'awaiting payment' && Number(o.hold_until) < now - 5_000);
  for (const o of overdue) problems.push(`order ${o.order_number}: still awaiting payment past its deadline`);

  const payments = await db.selectFrom('payments').select(['id', 'status', 'order_number', 'refunded_at']).execute();
  const byId = new Map(payments.map((p) => [p.id, p]));
  for (const [id, status] of ledger.payments) {
    const payment = byId.get(id);
    const shown = payment && (payment.status === 'unknown' ? 'pending' : payment.status);
    if (shown !== status) problems.push(`payment ${id}: answered 201 ${status} but ${payment ? payment.status : 'missing'}`);
  }
  const charges = await db.selectFrom('sandbox_charges').select(['idem_key', 'outcome', 'refunded_amount']).where('outcome', '=', 'succeeded').execute();
  for (const charge of charges) {
    if (byId.get(charge.idem_key)?.status !== 'succeeded') problems.push(`charge of ${charge.idem_key}: charged, but the payment is ${byId.get(charge.idem_key)?.status ?? 'missing'}`);
  }
  const charged = new Set(charges.map((c) => c.idem_key));
  for (const p of payments) if (p.status === 'succeeded' && !charged.has(p.id)) problems.push(`payment ${p.id}: succeeded without a charge`);
  const paying = await db.selectFrom('order_payments').innerJoin('payments', 'payments.id', 'order_payments.id').select(['payments.id', 'payments.refunded_at', 'order_payments.order_number']).execute();
  for (const p of paying) {
    const order = orders.get(String(p.order_number));
    if (p.refunded_at !== null && order?.status !== 'cancelled') problems.push(`order ${p.order_number}: the charge that paid it (${p.id}) was refunded`);
  }
  const kept = new Map<string, number>();
  for (const p of payments) if (p.order_number !== null && p.status === 'succeeded' && p.refunded_at === null) kept.set(String(p.order_number), (kept.get(String(p.order_number)) ?? 0) + 1);
  for (const [order, count] of kept) if (count > 1) problems.push(`order ${order}: charged ${count} times and kept`);

  const delivered = await checkEndpoints(database, ledger, receiver, endpoints);
  problems.push(...delivered.problems);

  const updatesAt = new Map(endpoints.map((e) => [e.prefix, receiver.at(e.prefix).tokenUpdates()]));
  for (const [token, card] of ledger.cards) {
    const row = await db.selectFrom('vault_tokens').select(['exp_month', 'exp_year']).where('token_hash', '=', hashToken(token)).executeTakeFirst();
    if (!row) {
      problems.push(`card token ${token.slice(0, 6)}…: tokenized (200) but not in the vault`);
      continue;
    }
    const vault = `${String(row.exp_month).padStart(2, '0')}${String(row.exp_year).slice(2)}`;
    if (!ledger.allowedExpirations(token).has(vault)) problems.push(`card token ${token.slice(0, 6)}…: vault holds ${vault}, the client was told otherwise`);
    // Every endpoint of the token's site that takes token updates was told, in the order of their timestamps.
    for (const endpoint of endpoints.filter((e) => e.site === card.site && takes(e, '/token-updated'))) {
      const told = updatesAt.get(endpoint.prefix)!.get(token)?.at(-1)?.expiration ?? card.initial;
      if (told !== vault) problems.push(`card token ${token.slice(0, 6)}…: vault holds ${vault}, ${label(endpoint)} was last told ${told}`);
    }
  }

  const lines = [
    `${faults}; requests ${ledger.counts.requests} (${ledger.counts.unanswered} unanswered)`,
    `ledger: ${ledger.orders.size} orders (${ledger.counts.ordersPaid} paid), ${ledger.counts.apiPayments} payments, ${ledger.counts.cardUpdates} card updates, ${ledger.counts.staffMoves} staff moves, ${ledger.counts.claims} claims`,
    `database: ${orders.size} orders, ${payments.length} payments, ${charges.length} charges; ${delivered.owed} deliveries owed to ${endpoints.length} endpoints of ${new Set(endpoints.map((e) => e.site)).size} sites`,
    `lost ${problems.length}; double charges ${[...kept.values()].filter((n) => n > 1).length}; duplicate deliveries ${delivered.duplicates}`,
    ...sample(problems),
  ];
  return { losses: problems.length, lines };
}

/** The first three problems of each kind (the text with its ids and numbers taken out), so one kind hides no other. */
function sample(problems: string[]): string[] {
  const kinds = new Map<string, string[]>();
  for (const problem of problems) {
    const kind = problem.replace(/[\w…-]*\d[\w…-]*/gu, '#');
    const same = kinds.get(kind) ?? [];
    same.push(problem);
    kinds.set(kind, same);
  }
  return [...kinds.values()].flatMap((same) => [...same.slice(0, 3), ...(same.length > 3 ? [`… and ${same.length - 3} more of that kind`] : [])]);
}
