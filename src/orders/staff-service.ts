/**
 * The staff use cases of docs/ordering.md#moving-an-order-forward: move an order forward, hand it over at pickup, cancel it, list orders, and the
 * public pickup board. Each change is one conditional update in a transaction (never read-then-write); a refused
 * change is explained from a read made after the update found nothing to change. Events are published after commit.
 */
import { DomainError } from '../kernel/errors.ts';
import {
  advanceRefusal,
  advanceSources,
  cancelReasonRefusal,
  cancelRefusal,
  collectorNameRefusal,
  collectRefusal,
  type StaffRefusal,
} from './fulfilment.ts';
import type { Order, OrderStatus } from './order.ts';
import { displayName } from './person-name.ts';
import type { Db } from '../db/database.ts';
import * as orders from './order-repository.ts';
import type { OrderRow } from './order-tables.ts';
import type { OrderChange } from './order-events.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { orderEvent } from './order-events.ts';
import { parseOrderNumber } from './order.ts';
import { readTogether, transaction } from '../db/transaction.ts';

export const ORDERS_PAGE_DEFAULT = 50;
export const ORDERS_PAGE_MAX = 200;

export interface OrderListQuery {
  statuses?: readonly OrderStatus[] | null;
  first?: number | null;
  /** The cursor of the last order already seen. */
  after?: string | null;
}

export interface OrderPage {
  edges: Array<{ cursor: string; node: Order }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  /** Orders matching the status filter, on every page. */
  totalCount: number;
}

/** One line of the public pickup board: never the whole name, never an email (docs/graphql.md#root-fields). */
export interface PickupEntry {
  orderNumber: string;
  displayName: string;
  /** Epoch milliseconds of the move to ready. */
  readySince: number;
}

/**
 * Refunds, as the staff service needs them: a paid order that staff cancel is refunded (document 1: all payments
 * will be refunded). The payments service implements it (services.ts), after the cancel has committed.
 */
export interface StaffCancelRefunds {
  refundCancelledOrder(order: Order): Promise<void>;
}

/**
 * Another area's writes that belong to a cancel (the risk area's staff decision and its notification): run inside
 * the cancel's transaction, after the order's conditional update, so they commit with the cancel or not at all
 * (docs/notifications.md#the-outbox). A step that throws rolls the cancel back, and the order can be cancelled again.
 */
export type CancelStep = (trx: Db, cancelled: Order) => Promise<void>;

export interface OrderStaffService {
  /** Forward only along received → in progress → ready; `collected` only by collect. */
  advance(orderNumber: string, status: OrderStatus): Promise<Order>;
  /** A ready order, handed to someone whose first and last name match the order's. */
  collect(orderNumber: string, collectorName: string): Promise<Order>;
  /** Any order not collected and not cancelled; frees its email. `step` commits in the same transaction. */
  cancel(orderNumber: string, reason: string, step?: CancelStep): Promise<Order>;
  list(query?: OrderListQuery): Promise<OrderPage>;
  /** One order as staff see it, by number; null when there is none. */
  find(orderNumber: string): Promise<Order | null>;
  pickupBoard(): Promise<PickupEntry[]>;
}

export const encodeCursor = (orderNumber: string): string => Buffer.from(orderNumber, 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  const number = parseOrderNumber(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (number === null || encodeCursor(String(number)) !== cursor) {
    throw new DomainError('validation_failed', 'The cursor is not one this list gave out.', { field: 'after' });
  }
  return number;
}

const NOT_FOUND = 'No order was found with that order number.';

const refuse = (refusal: StaffRefusal) =>
  new DomainError('validation_failed', refusal.message, refusal.field ? { field: refusal.field } : {});

export function createOrderStaffService(deps: ServiceDeps & { refunds?: StaffCancelRefunds }): OrderStaffService {
  const { database, clock, bus, logger } = deps;
  const { db } = database;

  function publish(order: Order, change: OrderChange): void {
    const event = orderEvent(order, change);
    bus.publish('orderChanged', event);
    bus.publish('order', order.orderNumber, event);
  }

  function numberOf(orderNumber: string): number {
    const number = parseOrderNumber(orderNumber);
    if (number === null) throw new DomainError('not_found', NOT_FOUND);
    return number;
  }

  /** The order as it is now, after a conditional update changed nothing. */
  async function current(number: number): Promise<Order> {
    const row = await orders.findOrder(db, number);
    if (!row) throw new DomainError('not_found', NOT_FOUND);
    return orders.rowToOrder(row);
  }

  /**
   * Runs one conditional update; when it changes nothing, reads the order and asks `explain` why. A null answer
   * means another request moved the order in between into a status this change accepts: try again. `step` runs in
   * the update's transaction only when the update changed the order.
   */
  async function change(
    number: number,
    update: (trx: Db, now: number) => Promise<OrderRow | undefined>,
    explain: (order: Order) => StaffRefusal | null,
    step?: CancelStep,
  ): Promise<Order> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const row = await transaction(db, async (trx) => {
        const updated = await update(trx, clock.now());
        if (updated && step) await step(trx, orders.rowToOrder(updated));
        return updated;
      });
      if (row) return orders.rowToOrder(row);
      const refusal = explain(await current(number));
      if (refusal) throw refuse(refusal);
    }
    throw new DomainError('unavailable', 'The order changed while this was being saved. Please try again.', { retryAfter: 1 });
  }

  return {
    async advance(orderNumber, status) {
      const number = numberOf(orderNumber);
      const from = advanceSources(status);
      const order = await change(
        number,
        (trx, now) => orders.advanceStatus(trx, number, { to: status, from, now }),
        (found) => advanceRefusal(found.orderNumber, found.status, status),
      );
      logger.info('order advanced', { orderNumber: order.orderNumber, status: order.status });
      publish(order, 'advanced');
      return order;
    },

    async collect(orderNumber, collectorName) {
      const number = numberOf(orderNumber);
      const nameRefusal = collectorNameRefusal(collectorName);
      if (nameRefusal) throw refuse(nameRefusal);
      // The order's name never changes, so checking it against this read is safe; the update is still
      // conditional on `ready` (and on that name), so a concurrent change is never overwritten.
      const before = await current(number);
      const refusal = collectRefusal(before, collectorName);
      if (refusal) throw refuse(refusal);
      const collectedBy = collectorName.trim().replace(/\s+/gu, ' ');
      const order = await change(
        number,
        (trx, now) => orders.markCollected(trx, number, { name: before.name, collectedBy, now }),
        (found) => collectRefusal(found, collectorName),
      );
      logger.info('order collected', { orderNumber: order.orderNumber });
      publish(order, 'collected');
      return order;
    },

    async cancel(orderNumber, reason, step) {
      const number = numberOf(orderNumber);
      const reasonRefusal = cancelReasonRefusal(reason);
      if (reasonRefusal) throw refuse(reasonRefusal);
      const order = await change(
        number,
        (trx, now) => orders.cancelByStaff(trx, number, { reason: reason.trim(), now }),
        (found) => cancelRefusal(found.orderNumber, found.status),
        step,
      );
      logger.info('order cancelled by staff', { orderNumber: order.orderNumber });
      publish(order, 'cancelled');
      if (order.paidAt !== null) await refundAfterStaffCancel(order);
      return order;
    },

    async find(orderNumber) {
      const number = parseOrderNumber(orderNumber);
      const row = number === null ? undefined : await orders.findOrder(db, number);
      return row ? orders.rowToOrder(row) : null;
    },

    async list({ statuses, first, after } = {}) {
      const limit = first ?? ORDERS_PAGE_DEFAULT;
      if (!Number.isInteger(limit) || limit < 0 || limit > ORDERS_PAGE_MAX) {
        throw new DomainError('validation_failed', `first must be a whole number from 0 to ${ORDERS_PAGE_MAX}.`, { field: 'first' });
      }
      const afterNumber = after == null ? undefined : decodeCursor(after);
      const filter = { statuses: statuses ?? undefined };
      // One row more than the page tells whether another page follows; the page and its count from one snapshot.
      const [rows, totalCount] = await readTogether(db, (trx) =>
        Promise.all([orders.listOrders(trx, { ...filter, ...(afterNumber !== undefined ? { afterNumber } : {}), limit: limit + 1 }), orders.countOrders(trx, filter)]),
      );
      const edges = rows.slice(0, limit).map((row) => {
        const node = orders.rowToOrder(row);
        return { cursor: encodeCursor(node.orderNumber), node };
      });
      return {
        edges,
        pageInfo: { hasNextPage: rows.length > limit, endCursor: edges.at(-1)?.cursor ?? null },
        totalCount,
      };
    },

    async pickupBoard() {
      const rows = await orders.readyOrders(db);
      return rows.map((row) => ({
        orderNumber: String(row.order_number),
        displayName: displayName(row.name),
        readySince: Number(row.ready_at ?? row.updated_at),
      }));
    },
  };

  /** The cancel is committed whatever happens here; a refund that fails now is made by the payments sweep (owedRefunds). */
  async function refundAfterStaffCancel(order: Order): Promise<void> {
    if (!deps.refunds) {
      logger.warn('paid order cancelled: refund due, no payment module to make it yet', { orderNumber: order.orderNumber });
      return;
    }
    try {
      await deps.refunds.refundCancelledOrder(order);
    } catch (error) {
      logger.error('refund after staff cancel failed', { orderNumber: order.orderNumber, error });
    }
  }
}
