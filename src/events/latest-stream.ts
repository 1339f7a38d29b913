/**
 * Takes a pushed value at once, in place of the reader; false when it cannot now, and the value then goes to the
 * reader as any other.
 */
export type DirectTaker<T> = (value: T) => boolean;

/**
 * A push stream for high-rate updates where only the newest value matters (hold ticks): a value that nobody has
 * read yet is replaced by the next one unless it is marked to keep (first and final events). One promise per
 * read, no buffers to grow — a Repeater allocates several promises per push, which at thousands of subscribers a
 * second is most of the garbage the process makes.
 */
export class LatestStream<T> implements AsyncIterableIterator<T> {
  private readonly pending: Array<{ value: T; keep: boolean }> = [];
  private reader: ((result: IteratorResult<T>) => void) | null = null;
  private taker: DirectTaker<T> | null = null;
  private finished = false;

  /** `onClose` runs once, when the reader returns or the stream is ended. */
  constructor(private readonly onClose: () => void) {}

  push(value: T, keep = false): void {
    if (this.finished) return;
    // A reader waiting means every earlier value has been read and handed on, so a value taken here cannot pass
    // one still on its way. First and final values (keep) always go the reader's way.
    if (this.reader && this.taker && !keep && this.taker(value)) return;
    if (this.reader) {
      const read = this.reader;
      this.reader = null;
      read({ value, done: false });
      return;
    }
    const last = this.pending[this.pending.length - 1];
    if (last && !last.keep) last.value = value;
    else this.pending.push({ value, keep });
  }

  /**
   * Offers each later push to `taker` first, while the reader is waiting for it (docs/graphql.md#the-tick-path): the
   * WebSocket transport writes a hold tick's frame straight to its socket, without the promises of every iterator
   * between this stream and the socket. One taker per stream; it is dropped when the stream ends.
   */
  offerTo(taker: DirectTaker<T>): void {
    if (!this.finished) this.taker = taker;
  }

  /** Ends the stream after the values already pushed have been read. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.taker = null;
    this.onClose();
    if (this.reader && this.pending.length === 0) {
      const read = this.reader;
      this.reader = null;
      read({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    const first = this.pending.shift();
    if (first) return Promise.resolve({ value: first.value, done: false });
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.reader = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.pending.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
