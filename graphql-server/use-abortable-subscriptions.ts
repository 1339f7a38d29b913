/**
 * useAbortableSubscriptions: a subscription run with an `operationSignal` in its server context ends as soon as that
 * signal aborts. graphql-sse's single connection mode runs each operation as a request of its own
 * (single-connection-operations.ts) and aborts it at its DELETE or its stream's close. Cancelling the reading of
 * yoga's answer alone did not end the subscription: @whatwg-node's stream runs a cancel only after the read it has
 * pending, which waits for the next event or yoga's ping 12 s apart, so the subscription went on reading for
 * nobody, and counted as open, for up to 23 s (an outside operator review). Here the pending `next` is answered
 * `done` at once, and the source is told to return.
 */
import type { Plugin } from '@envelop/core';
import { isAsyncIterable } from 'graphql-yoga';

/** What the single connection mode adds to an operation's server context. */
export interface AbortableContext {
  operationSignal?: AbortSignal;
}

const DONE: IteratorResult<never> = { done: true, value: undefined };

/** `source`, ending at once when `signal` aborts (its return() called, not awaited: it may wait for an event). */
export function endingOnAbort<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  const finish = (): Promise<IteratorResult<T>> => {
    if (!finished) {
      finished = true;
      void iterator.return?.().catch(() => undefined);
    }
    return Promise.resolve(DONE);
  };
  const aborted = new Promise<IteratorResult<T>>((resolve) => signal.addEventListener('abort', () => resolve(finish()), { once: true }));
  const ending: AsyncIterableIterator<T> = {
    next: () => (signal.aborted || finished ? finish() : Promise.race([iterator.next(), aborted])),
    return: finish,
    [Symbol.asyncIterator]: () => ending,
  };
  return ending;
}

export const useAbortableSubscriptions: Plugin<AbortableContext> = {
  onSubscribe({ args }) {
    const signal = args.contextValue.operationSignal;
    if (!signal) return;
    return {
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result)) setResult(endingOnAbort(result, signal));
      },
    };
  },
};
