/**
 * The in-memory event bus's target: the three methods of an EventTarget that `@graphql-yoga/subscription` and
 * `listen` call, over a map of listener sets, with no `instanceof` check on the event.
 *
 * Not node's EventTarget: a test environment that imitates a browser (vitest's `jsdom`, `happy-dom`) replaces the
 * globals `EventTarget` and `CustomEvent`, and node's target then refused the environment's events ("The event
 * argument must be an instance of Event"), so `createGateway()` failed in a frontend team's component tests. As
 * node's target does, a dispatch calls the listeners there were when it began, in the order they were added; one
 * removed meanwhile is not called; a listener's throw does not stop the others and is rethrown after them, as an
 * uncaught error, as node reports it. No listener limit: every page on the options listens to one event type.
 */
type Listener = ((event: unknown) => void) | { handleEvent(event: unknown): void };

export class MemoryEventTarget {
  private readonly listeners = new Map<string, Set<Listener>>();

  addEventListener(type: string, listener: Listener | null): void {
    if (listener === null) return;
    let set = this.listeners.get(type);
    if (set === undefined) this.listeners.set(type, (set = new Set()));
    set.add(listener);
  }

  removeEventListener(type: string, listener: Listener | null): void {
    const set = this.listeners.get(type);
    if (set === undefined || listener === null) return;
    set.delete(listener);
    if (set.size === 0) this.listeners.delete(type);
  }

  dispatchEvent(event: { type: string }): boolean {
    const set = this.listeners.get(event.type);
    if (set === undefined) return true;
    if (set.size === 1) {
      call(set.values().next().value!, event); // one listener (an order's page): no copy of the set
      return true;
    }
    for (const listener of [...set]) {
      // Removed by an earlier listener of this dispatch: not called, as with node's target.
      if (set.has(listener)) call(listener, event);
    }
    return true;
  }
}

function call(listener: Listener, event: unknown): void {
  try {
    if (typeof listener === 'function') listener(event);
    else listener.handleEvent(event);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
