/**
 * The live streams behind the subscriptions (docs/graphql.md#root-fields). Each stream starts with the current state —
 * so a display that reconnects is right again at once — then follows the event bus; it reads again after a break in
 * Redis, and after a failed read once the database answers (src/events/read-recovery.ts). Events carry ids and versions; every
 * change is reloaded, so a stale or repeated event never shows stale data.
 */
import { LatestStream } from '../events/latest-stream.ts';
import { Repeater } from '@repeaterjs/repeater';
import { secondsLeft, type Order } from './order.ts';
import type { SleeveOptionSet } from './sleeve-options.ts';
import { findOrder, listOrders, rowToOrder } from './order-repository.ts';
import type { HoldTicker } from './hold-ticker.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { RESUME_CLOCK_MARGIN_MS, type EventBus } from '../events/event-bus.ts';
import type { OptionsService } from './options-service.ts';
import type { OrderService } from './order-service.ts';
import type { OrderStaffService, PickupEntry } from './staff-service.ts';
import type { OrderChangedEvent } from './order-events.ts';
import { eventKey, sharedReads } from './shared-reads.ts';
import { createReadRecovery } from '../events/read-recovery.ts';
import { listening, startingState } from '../events/stream-start.ts';

/**
 * One moment of a hold, with what a countdown shows as plain properties: the GraphQL type's fields read them as they
 * are, with no resolver of their own. A field with a resolver costs graphql-jit a call and a resolve-info object per
 * event, and thousands of subscribers get one event a second each (docs/graphql.md#the-tick-path).
 */
export interface HoldTickEvent {
  order: Order;
  orderNumber: string;
  status: Order['status'];
  /** The hold's end in ISO 8601, made once per stream, not per tick. */
  holdUntil: string;
  secondsLeft: number;
  /** The last event: the hold is over (paid, cancelled, expired); the stream completes after it. */
  final: boolean;
}

/** A hold's event for `order`; a stream that ticks passes the `holdUntil` text it made once. */
export function holdTick(order: Order, secondsLeft: number, final: boolean, holdUntil = new Date(order.holdUntil).toISOString()): HoldTickEvent {
  return { order, orderNumber: order.orderNumber, status: order.status, holdUntil, secondsLeft, final };
}

export type PickupChange = 'snapshot' | 'ready' | 'collected' | 'removed';

export interface PickupBoardEvent {
  change: PickupChange;
  /** The order that changed; null for the snapshot. */
  orderNumber: string | null;
  /** The whole board after the change, so a display can simply redraw. */
  board: PickupEntry[];
}

export interface LiveService {
  /** One event now, one each time the whole seconds left change, a final one when the hold ends. */
  holdCountdown(orderNumber: string, payToken: string): Promise<AsyncIterable<HoldTickEvent>>;
  /** The order now, then after every change. */
  orderUpdates(orderNumber: string, payToken: string): Promise<AsyncIterable<Order>>;
  /** Every change of every order (staff). */
  orderEvents(): Promise<AsyncIterable<Order>>;
  /** The current set now, then each new set. */
  optionsChanges(): Promise<AsyncIterable<SleeveOptionSet>>;
  /** The board now, then an event each time an order becomes ready, is collected or leaves the board. */
  pickupBoard(): Promise<AsyncIterable<PickupBoardEvent>>;
}

export function createLiveService(
  deps: ServiceDeps & { orders: OrderService; options: OptionsService; staff: OrderStaffService; ticker: HoldTicker },
): LiveService {
  const { database, bus, clock, logger, orders, options, staff, ticker } = deps;

  async function reload(orderNumber: string): Promise<Order | undefined> {
    const row = await findOrder(database.db, Number(orderNumber));
    return row ? rowToOrder(row) : undefined;
  }

  // The streams of this process that react to one change, or to one resume after a break, share one read of it.
  const orderAfter = sharedReads<Order | undefined>();
  const boardAfter = sharedReads<PickupEntry[]>();
  // A stream whose read fails keeps its place and reads again once the database answers, as after a break in Redis.
  const { guarded, onResume, readFailed } = createReadRecovery({ onBusResume: (h) => bus.onResume(h), probe: database.check, clock, logger });
  // Counted before any stream subscribes, so at each resume every stream's handler sees that resume's number.
  let resumes = 0;
  onResume(() => (resumes += 1));
  const resumeKey = () => `resume${resumes}`;
  const reloadAfter = (event: OrderChangedEvent) => orderAfter(eventKey(event), () => reload(event.orderNumber));
  const readBoardAfter = (event: OrderChangedEvent) => boardAfter(eventKey(event), () => staff.pickupBoard());
  const reloadAfterResume = (orderNumber: string) => orderAfter(`${orderNumber}@${resumeKey()}`, () => reload(orderNumber));
  const readBoardAfterResume = () => boardAfter(resumeKey(), () => staff.pickupBoard());

  /** Pushes each order changed at `since` or later, by order number, a page at a time. */
  async function changedSince(since: number, push: (order: Order) => Promise<unknown>): Promise<void> {
    for (let after = 0; ; ) {
      const page = await listOrders(database.db, { changedSince: since, afterNumber: after, limit: PAGE });
      for (const row of page) await push(rowToOrder(row));
      if (page.length < PAGE) return;
      after = Number(page.at(-1)!.order_number);
    }
  }

  /** The changes of one order and the order itself, for the holder of its payToken (not_found otherwise). */
  async function followOrder(orderNumber: string, payToken: string) {
    // Subscribe before reading, so a change between the two is not missed.
    const changes = await listening(bus, bus.subscribe('order', orderNumber));
    return { changes, order: await startingState(changes, () => orders.lookup(orderNumber, payToken)) };
  }

  return {
    async holdCountdown(orderNumber, payToken) {
      // A callback on the order's topic, not an iterator over it: the stream is held open by each of thousands of
      // subscribers, and a Repeater with a loop awaiting it weighed more than the rest of the watch
      // (docs/graphql.md#what-one-subscriber-costs). Listening starts before the read, so a change between the two is not missed.
      /** The hold's end is known (from its event, or read after a break in Redis): one final event. */
      let ended = false;
      let endedBy: OrderChangedEvent | undefined;
      let onHoldEnded = (_event: OrderChangedEvent) => {};
      const unlisten = bus.listen('order', orderNumber, (event) => {
        if (event.status === 'awaiting payment' || ended) return;
        ended = true;
        endedBy = event;
        onHoldEnded(event);
      });
      await bus.subscribed();
      let order: Order;
      try {
        order = await orders.lookup(orderNumber, payToken);
      } catch (error) {
        unlisten();
        throw error;
      }
      let unwatch: (() => void) | undefined;
      let unresume: (() => void) | undefined;
      const stream = new LatestStream<HoldTickEvent>(() => {
        unwatch?.();
        unresume?.();
        unlisten();
      });
      if (order.status !== 'awaiting payment') {
        // Not held (any more): the current state is also the last.
        stream.push(holdTick(order, 0, true), true);
        stream.end();
        return stream;
      }
      const holdUntil = new Date(order.holdUntil).toISOString();
      stream.push(holdTick(order, secondsLeft(order.holdUntil, clock.now()), false, holdUntil), true);
      unwatch = ticker.watch(order.holdUntil, (secondsLeft) => stream.push(holdTick(order, secondsLeft, false, holdUntil)));
      const endWith = (read: Promise<Order | undefined>) => {
        read.then(
          (latest) => {
            stream.push(holdTick(latest ?? order, 0, true), true);
            stream.end();
          },
          // Unreadable now: no final event claims a state it could not read. After an outage the resume below reads
          // it again; after any other failure the stream ends without one, as it did before reads were recovered.
          (error: unknown) => {
            ended = false;
            if (!readFailed('hold countdown', error)) stream.end();
          },
        );
      };
      onHoldEnded = (event) => endWith(reloadAfter(event));
      // After a break in Redis (or a failed read) the event that ended the hold may be lost: the order says.
      unresume = onResume(() => {
        if (ended) return;
        void guarded('hold countdown', async () => {
          const latest = await reloadAfterResume(orderNumber);
          if (!latest || latest.status === 'awaiting payment' || ended) return;
          ended = true;
          endWith(Promise.resolve(latest));
        });
      });
      if (endedBy) onHoldEnded(endedBy);
      return stream;
    },

    async orderUpdates(orderNumber, payToken) {
      const { changes, order } = await followOrder(orderNumber, payToken);
      return new Repeater<Order>(async (push, stop) => {
        let version = order.version;
        await push(order);
        /** The order read after a change, shown when it is newer than what was shown. */
        const show = async (latest: Order | undefined) => {
          if (!latest || latest.version <= version) return;
          version = latest.version;
          await push(latest);
        };
        // After a break in Redis (or a failed read), changes made meanwhile were announced to nobody: the order says.
        const unresume = onResume(() => void guarded('order updates', async () => show(await reloadAfterResume(orderNumber))));
        void (async () => {
          for await (const event of changes) {
            if (event.version > version) await guarded('order updates', async () => show(await reloadAfter(event)));
          }
        })();
        await stop;
        unresume();
        await changes.return?.();
      });
    },

    async orderEvents() {
      const changes = await listening(bus, bus.subscribe('orderChanged'));
      return new Repeater<Order>(async (push, stop) => {
        // After a break in Redis (or a failed read), every order changed meanwhile: a console keeps the newest
        // version of each.
        const unresume = onResume((awayMs) => void guarded('order events', () => changedSince(clock.now() - awayMs - RESUME_CLOCK_MARGIN_MS, push)));
        void (async () => {
          for await (const event of changes) {
            await guarded('order events', async () => {
              const latest = await reloadAfter(event);
              if (latest) await push(latest);
            });
          }
        })();
        await stop;
        unresume();
        await changes.return?.();
      });
    },

    async optionsChanges() {
      const changes = await listening(bus, bus.subscribe('optionsChanged'));
      const first = await startingState(changes, () => options.current());
      return new Repeater<SleeveOptionSet>(async (push, stop) => {
        let version = first.version;
        await push(first);
        /** The set as stored now, shown when newer (another instance may have published it: no cached copy). */
        const showLatest = async () => {
          options.invalidate();
          const latest = await options.current();
          if (latest.version <= version) return;
          version = latest.version;
          await push(latest);
        };
        const unresume = onResume(() => void guarded('options changes', showLatest));
        void (async () => {
          for await (const event of changes) {
            if (event.version > version) await guarded('options changes', showLatest);
          }
        })();
        await stop;
        unresume();
        await changes.return?.();
      });
    },

    async pickupBoard() {
      const changes = await listening(bus, bus.subscribe('orderChanged'));
      // What the screen shows: the board last pushed, and only that (every check below is against the screen).
      let shown = await startingState(changes, () => staff.pickupBoard());
      return new Repeater<PickupBoardEvent>(async (push, stop) => {
        await push({ change: 'snapshot', orderNumber: null, board: shown });
        // After a break in Redis (or a failed read), orders may have become ready or left meanwhile unannounced: the
        // board as it is now, as a snapshot when it differs from the screen's.
        const unresume = onResume(() =>
          void guarded('pickup board', async () => {
            const board = await readBoardAfterResume();
            if (JSON.stringify(board) === JSON.stringify(shown)) return;
            shown = board;
            await push({ change: 'snapshot', orderNumber: null, board });
          }),
        );
        /** One change, announced when it moves an order onto or off the board the screen shows. */
        const announce = async (event: OrderChangedEvent) => {
          const wasShown = shown.some((entry) => entry.orderNumber === event.orderNumber);
          if (event.status !== 'ready' && !wasShown) return;
          // A move to ready that the screen already shows (it happened before the board it was last given, and its
          // event came after) changes nothing there: announcing it again would flash an old order as new.
          if (event.status === 'ready' && wasShown) return;
          const board = await readBoardAfter(event);
          // An event older than the board read now (one published before this display subscribed can arrive after
          // its snapshot, through Redis): the order's place on the board is not what the event says, so nothing is
          // announced. That board is not kept either: the orders it has that the screen lacks are announced by
          // their own events, which would find them already shown.
          if ((event.status === 'ready') !== board.some((entry) => entry.orderNumber === event.orderNumber)) return;
          const change: PickupChange = event.status === 'ready' ? 'ready' : event.status === 'collected' ? 'collected' : 'removed';
          shown = board;
          await push({ change, orderNumber: event.orderNumber, board });
        };
        void (async () => {
          for await (const event of changes) await guarded('pickup board', () => announce(event));
        })();
        await stop;
        unresume();
        await changes.return?.();
      });
    },
  };
}

/** `orderEvents` reads what changed during a break by pages of this many. */
const PAGE = 200;
