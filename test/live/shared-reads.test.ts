/**
 * Screens in a busy hour (src/orders/shared-reads.ts): every pickup display and staff console of one
 * process reacts to the same order change, and they share one read of what it changed instead of one read each.
 * What each screen receives does not change.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { recordStatements } from '../support/statements.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';

const BOARD = 'subscription { pickupBoard { change orderNumber board { orderNumber } } }';
const EVENTS = 'subscription { orderEvents { orderNumber status } }';
const SCREENS = 4;

describe('live screens share the reads of one change', () => {
  it(`gives ${SCREENS} displays and ${SCREENS} staff consoles the change with one read of the order and one of the board`, async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const n = created.body.orderNumber as string;
    await live.rest('POST', `/api/orders/${n}/pay`, { t: created.body.payToken, method: 'vendor_card' });

    const boards = Array.from({ length: SCREENS }, () => subscribe(live.client(), BOARD));
    const consoles = Array.from({ length: SCREENS }, () => subscribe(live.client(`Bearer ${live.adminToken}`), EVENTS));
    for (const board of boards) expect((await board.next()).pickupBoard.change).toBe('SNAPSHOT');
    // A staff console's stream starts with the next change: every one listens before it.
    await subscriptionsOpen(live.server.url, 'orderEvents', SCREENS);

    const recorded = recordStatements();
    try {
      await live.gql(`mutation { advanceOrder(orderNumber: "${n}", status: READY) { status } }`, {}, { token: live.adminToken });
      for (const board of boards) {
        expect((await board.next()).pickupBoard).toEqual({ change: 'READY', orderNumber: n, board: [{ orderNumber: n }] });
      }
      for (const events of consoles) expect((await events.next()).orderEvents).toEqual({ orderNumber: n, status: 'READY' });
    } finally {
      recorded.stop();
    }
    const reads = (pattern: RegExp) => recorded.statements.filter((statement) => pattern.test(statement.sql)).length;
    // The board: one read for the four displays (was four).
    expect(reads(/^select "order_number", "name", "ready_at", "updated_at" from "orders" where "status" = /u)).toBe(1);
    // The order: one read for the four consoles (was four).
    expect(reads(/^select \* from "orders" where "order_number" = /u)).toBe(1);
  });

  it(`gives ${SCREENS} countdowns of one order their final event with one read of the order`, async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const n = created.body.orderNumber as string;
    const countdown = 'subscription ($n: ID!, $t: String!) { holdCountdown(orderNumber: $n, payToken: $t) { status final } }';
    const holds = Array.from({ length: SCREENS }, () => subscribe(live.client(), countdown, { n, t: created.body.payToken }));
    for (const hold of holds) expect((await hold.next()).holdCountdown.final).toBe(false);

    const recorded = recordStatements();
    try {
      await live.rest('POST', `/api/orders/${n}/pay`, { t: created.body.payToken, method: 'vendor_card' });
      for (const hold of holds) {
        await hold.completed;
        expect(hold.all.at(-1)!.holdCountdown).toEqual({ status: 'RECEIVED', final: true });
      }
    } finally {
      recorded.stop();
    }
    // The pay reads the order once itself (its token check), then one read for the four countdowns (was four).
    expect(recorded.statements.filter((statement) => /^select \* from "orders" where "order_number" = /u.test(statement.sql))).toHaveLength(2);
  });
});
