/**
 * The single instance's counts of the sliding-window limiter (rate-limiter.ts), kept in this process and counted
 * synchronously. rate-limiter-flexible's memory store answered every count through promises and a timer per key
 * (its expiry): several promise hops and a setTimeout per request, 5 to 10 µs of a small request in situ, where
 * this is a map lookup and an addition. Redis (REDIS_URL) still counts through rate-limiter-flexible, which shares
 * the counts between instances.
 *
 * The same counts as the store keyed `key:window` held: per key, the count of the current fixed window and of the
 * one before it, which is all the slide reads. A count lived two windows in the store, then expired; here a key's
 * counts go at the first count of a window two or more after its last (the sweep below), so the map holds at most
 * the keys seen in the last two windows.
 */

interface Counts {
  /** The fixed window `current` counts (a number from the gateway's clock: floor(now / windowMs)). */
  window: number;
  current: number;
  /** The count of window `window - 1`. */
  previous: number;
}

export class WindowCounts {
  private readonly counts = new Map<string, Counts>();
  /** The latest window any count was made in: when it moves on, keys idle for two windows go. */
  private latest = -Infinity;

  /** Counts one request of `key` in `window`; answers this window's count (this request included) and the last one's. */
  add(key: string, window: number): Counts {
    if (window > this.latest) this.sweep(window);
    let counts = this.counts.get(key);
    if (counts === undefined) {
      counts = { window, current: 1, previous: 0 };
      this.counts.set(key, counts);
    } else if (counts.window === window) {
      counts.current++;
    } else {
      // A later window (the clock moves forward): the current count becomes the previous one if it was the last window's.
      counts.previous = counts.window === window - 1 ? counts.current : 0;
      counts.window = window;
      counts.current = 1;
    }
    return counts;
  }

  /** Hands back one request of `key` counted in `window` (a refused one: only allowed requests use up a budget). */
  remove(key: string, window: number): void {
    const counts = this.counts.get(key);
    if (counts !== undefined && counts.window === window) counts.current--;
  }

  /** Keys whose last count is two or more windows old read 0 for both counts: dropped. */
  private sweep(window: number): void {
    this.latest = window;
    for (const [key, counts] of this.counts) if (counts.window < window - 1) this.counts.delete(key);
  }
}
