/**
 * Ending HTTP streams on shutdown (docs/edge.md#shutdown-of-streams). On SIGTERM every open SSE response (and
 * multipart one, multipart-subscriptions.ts, whose `complete` is its closing boundary) ends at
 * once, cleanly (the chunked response's last chunk, not a destroyed socket), but without the `complete` event of its
 * operation: `complete` tells a client that the subscription is over for good, and graphql-sse's client (distinct
 * connections mode), urql and a display's own loop then never subscribe again, so a pickup display froze silently
 * at every deploy. A stream that stops without `complete` is, to graphql-sse, a dropped connection: it connects
 * again, to this instance after its restart or to another, and every stream starts with the current state. The
 * single connection mode's streams end the same way (single-connection-mode.ts), and WebSocket clients get 1001,
 * not `complete`, for the same reason (ws-transport.ts).
 *
 * An in-memory gateway's `dispose()` is the one final end: nothing will come back, so its streams do end with
 * `complete`, and a frontend team's test waiting on a subscription finishes instead of retrying until it times out.
 *
 * The plugin hooks `onResponse` of yoga's own pipeline; the fast JSON path answers no stream and never runs it
 * (fast-path.ts counts it among the request plugins it reproduces).
 */
import type { Plugin } from 'graphql-yoga';

type FetchApi = { ReadableStream: typeof ReadableStream; Response: typeof Response };

export class StreamShutdown {
  private shuttingDown = false;
  /** dispose(): streams end with their `complete`, as nothing will come back. */
  private final = false;
  private readonly endings = new Set<() => void>();
  /** Requests whose streams end themselves (leaveToItself). */
  private readonly ownEnds = new WeakSet<Request>();
  readonly plugin: Plugin;

  constructor() {
    this.plugin = {
      onResponse: ({ request, response, setResponse, fetchAPI }) => {
        const type = response.headers.get('content-type');
        // What ends the stream for good: yoga's `complete` (distinct connections mode: no id); for multipart, `--`
        // after the boundary that ends every part (multipart-subscriptions.ts), which makes it the closing one.
        const complete = type?.startsWith('text/event-stream') ? 'event: complete\ndata:\n\n' : type?.startsWith('multipart/mixed') ? '--\r\n' : undefined;
        if (!response.body || complete === undefined) return;
        // graphql-sse's single connection mode ends its own streams (its events carry operation ids).
        if (this.ownEnds.has(request)) return;
        const body = this.untilShutdown(response.body, fetchAPI as FetchApi, complete);
        setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
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

  /** The stream that answers `request` is ended by whoever made it (it registered its own end): not wrapped. */
  leaveToItself(request: Request): void {
    this.ownEnds.add(request);
  }

  /** Makes every open HTTP stream end now, and any opened later end at once; `final`: with `complete`. */
  endAll(final = false): void {
    // Once final, it stays so: a stream reads it when it next pulls, and dispose() ends the streams with `complete`
    // before it closes a server started on the gateway, whose close ends them again (without).
    if (final) this.final = true;
    this.shuttingDown = true;
    for (const end of this.endings) end();
    this.endings.clear();
  }

  /**
   * `source` passed through until shutdown; then the response ends where it is, and `source` is cancelled, which
   * returns the operation's iterator (its subscription to the event bus ends) without writing its `complete`.
   */
  private untilShutdown(source: ReadableStream<Uint8Array>, fetchAPI: FetchApi, complete: string): ReadableStream<Uint8Array> {
    const reader = source.getReader();
    let end!: () => void;
    const ended = new Promise<null>((resolve) => (end = () => resolve(null)));
    const unregister = this.register(end);
    const finalEnd = (): boolean => this.final;
    return new fetchAPI.ReadableStream<Uint8Array>({
      async pull(controller) {
        const step = await Promise.race([reader.read(), ended]);
        if (step === null || step.done) {
          unregister();
          if (step === null) {
            void reader.cancel().catch(() => undefined);
            if (finalEnd()) controller.enqueue(new TextEncoder().encode(complete));
          }
          controller.close();
          return;
        }
        controller.enqueue(step.value);
      },
      cancel(reason) {
        unregister();
        return reader.cancel(reason);
      },
    });
  }
}
