/**
 * The reads that the live streams of one process share (src/orders/live-service.ts, docs/graphql.md#subscriptions):
 * K staff consoles or K pickup displays reacting to one change made K identical reads, at the busiest moments. A
 * read is keyed by what caused it — an order's event, or a resume after a break in Redis — so it is shared only
 * among streams that learnt of that cause before the read began, and it shows what each stream's own read would.
 */
import type { OrderChangedEvent } from './order-events.ts';

/** Reads by key: a read asked for while one of the same key is under way gets that one's answer. */
export function sharedReads<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const underWay = new Map<string, Promise<T>>();
  return (key, read) => {
    let reading = underWay.get(key);
    if (!reading) {
      reading = read().finally(() => underWay.delete(key));
      underWay.set(key, reading);
    }
    return reading;
  };
}

export const eventKey = (event: OrderChangedEvent): string => `${event.orderNumber}@${event.version}`;
