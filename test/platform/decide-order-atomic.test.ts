/**
 * A staff `decideOrder` CANCEL of a sleeve order is one change (DESIGN.md: a state change and the notifications it
 * causes are one transaction; docs/notifications.md#triggers): the cancel, the stored decision and its
 * /orderstatusupdatenotification commit together or not at all. A trigger created by the test makes the decision's
 * insert fail once, standing in for a crash between the steps; a retry must then do the whole change.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { outbox } from './support.ts';

const DECIDE_ORDER = `mutation($id: ID!, $by: String!, $comments: String) {
  decideOrder(orderId: $id, action: CANCEL, triggeredBy: $by, comments: $comments) { orderId target action comments }
}`;

/** Makes every insert into order_decisions fail until `remove` is called. */
async function failDecisionInserts(t: TestGateway): Promise<{ remove: () => Promise<void> }> {
  const { db, dialect } = t.gateway.database;
  if (dialect === 'sqlite') {
    await sql`create trigger fail_decision before insert on order_decisions begin select raise(abort, 'injected failure'); end`.execute(db);
    return { remove: async () => void (await sql`drop trigger fail_decision`.execute(db)) };
  }
  await sql.raw(`create function fail_decision() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`).execute(db);
  await sql`create trigger fail_decision before insert on order_decisions for each row execute function fail_decision()`.execute(db);
  return {
    remove: async () => {
      await sql`drop trigger fail_decision on order_decisions`.execute(db);
      await sql`drop function fail_decision()`.execute(db);
    },
  };
}

async function orderState(t: TestGateway, orderNumber: string) {
  const res = await t.gql('{ orders { edges { node { orderNumber status cancelReason } } } }', {}, { token: t.adminToken });
  return res.data.orders.edges.map((e: { node: unknown }) => e.node).find((n: { orderNumber: string }) => n.orderNumber === orderNumber);
}

describe('decideOrder CANCEL is one transaction', () => {
  it('commits nothing when recording the decision fails, and a retry then cancels, records and notifies once', async () => {
    const t = await testGateway();
    const { orderNumber } = await t.createOrder();
    const vars = { id: orderNumber, by: 'ops@sleeve.test', comments: 'Stolen card' };

    const trigger = await failDecisionInserts(t);
    const failed = await t.gql(DECIDE_ORDER, vars, { token: t.adminToken });
    expect(failed.errors?.length).toBeGreaterThan(0);
    // Nothing of the change was kept: the order is as it was, no decision, no notification.
    expect(await orderState(t, orderNumber)).toEqual({ orderNumber, status: 'AWAITING_PAYMENT', cancelReason: null });
    expect(await t.gateway.database.db.selectFrom('order_decisions').selectAll().execute()).toEqual([]);
    expect(await outbox(t, '/orderstatusupdatenotification')).toEqual([]);

    await trigger.remove();
    const retried = await t.gql(DECIDE_ORDER, vars, { token: t.adminToken });
    expect(retried.errors).toBeUndefined();
    expect(retried.data.decideOrder).toEqual({ orderId: orderNumber, target: 'SLEEVE_ORDER', action: 'CANCEL', comments: 'Stolen card' });
    expect(await orderState(t, orderNumber)).toEqual({ orderNumber, status: 'CANCELLED', cancelReason: 'Stolen card' });
    const stored = await t.gateway.database.db.selectFrom('order_decisions').select(['ref', 'action', 'triggered_by']).execute();
    expect(stored).toEqual([{ ref: `order:${orderNumber}`, action: 'CANCEL', triggered_by: 'ops@sleeve.test' }]);
    const queued = await outbox(t, '/orderstatusupdatenotification');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.body).toMatchObject({ orderId: orderNumber, merchantAction: 'CANCEL', agentComments: 'Stolen card' });
  });
});
