/**
 * Ending HTTP streams on shutdown (docs/edge.md#shutdown-of-streams): on SIGTERM every open SSE subscription's
 * iterator is made to finish, so yoga itself writes the stream's `complete` event and ends the response — the client
 * sees a clean end instead of a socket destroyed after the grace period. WebSocket subscriptions are left alone:
 * graphql-ws would send them `complete` too, and a graphql-ws client does not resubscribe an operation the server
 * completed; their sockets are closed with 1001 instead (ws-transport.ts), so clients reconnect and resubscribe.
 *
 * The plugin hooks only `onSubscribe`, which the fast JSON path never reaches (it runs no subscription), so it is
 * outside that path's plugin counts (fast-path.ts).
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

export class StreamShutdown {
  private shuttingDown = false;
  private readonly endings = new Set<() => void>();
  readonly plugin: Plugin;

  constructor() {
    this.plugin = {
      onSubscribe: ({ args }) => {
        // Only streams that came over HTTP carry yoga's `request` in their context; WebSocket ones do not.
        if (!(args.contextValue as { request?: unknown }).request) return undefined;
        return {
          onSubscribeResult: ({ result, setResult }) => {
            if (isAsyncIterable(result)) setResult(this.untilShutdown(result));
          },
        };
      },
    };
  }

  /** True once endAll ran: whatever opens a stream now is ended at once. */
  get ending(): boolean {
    return this.shuttingDown;
  }

  /** Calls `end` on shutdown (at once, if it has begun): a stream not made by yoga. Returns the unregister. */
  register(end: () => void): () => void {
    if (this.shuttingDown) {
      queueMicrotask(end);
      return () => {};
    }
    this.endings.add(end);
    return () => void this.endings.delete(end);
  }

  /** Makes every open HTTP stream finish now, and any opened later finish at once. */
  endAll(): void {
    this.shuttingDown = true;
    for (const end of this.endings) end();
    this.endings.clear();
  }

  private untilShutdown<T>(source: AsyncIterable<T>): AsyncIterableIterator<T> {
    const iterator = source[Symbol.asyncIterator]();
    const endings = this.endings;
    let end!: () => void;
    const ended = new Promise<IteratorResult<T>>((resolve) => (end = () => resolve({ done: true, value: undefined })));
    if (this.shuttingDown) end();
    else endings.add(end);
    const finish = (): void => {
      endings.delete(end);
      // Not awaited: an iterator may finish a pending `next` before its `return`; the stream must not wait on it.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    };
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        const step = await Promise.race([iterator.next(), ended]);
        if (step.done) finish();
        return step;
      },
      async return(value?: unknown) {
        finish();
        return { done: true, value: value as T };
      },
      async throw(error?: unknown) {
        finish();
        throw error;
      },
    };
  }
}
