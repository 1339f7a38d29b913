/**
 * How a live stream starts (src/orders/live-service.ts): listening first, then its starting state read, so that a
 * change between the two is not missed, and a failure to read it answers the subscribe.
 */
import type { EventBus } from './event-bus.ts';

/**
 * A bus subscription that is listening from when this resolves. The pubsub registers its listener (and, on Redis,
 * sends SUBSCRIBE) only on the first `next()`, so that is asked at once; then Redis's acknowledgement is awaited, so
 * that a state read after this shows every change whose event the stream does not get.
 */
export async function listening<T>(bus: EventBus, iterator: AsyncIterableIterator<T>): Promise<AsyncIterableIterator<T>> {
  let first: Promise<IteratorResult<T>> | null = iterator.next();
  const started: AsyncIterableIterator<T> = {
    next: () => {
      const result = first ?? iterator.next();
      first = null;
      return result;
    },
    return: (value?: unknown) => iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => started,
  };
  await bus.subscribed();
  return started;
}

/**
 * A stream's starting state, read once it listens. A failed read (the database unreachable) stops the listening and
 * is thrown from the subscribe, so the subscriber gets one result carrying the error (`UNAVAILABLE`, retryable), then
 * completion, as when an order is not found; not a failure from inside a stream that had started.
 */
export async function startingState<T>(changes: AsyncIterator<unknown>, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    await changes.return?.();
    throw error;
  }
}
