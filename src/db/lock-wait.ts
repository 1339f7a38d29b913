/**
 * Waiting for SQLite's write lock while another process holds it (an operator's `sqlite3` shell inside a
 * transaction, `npm run vault:rotate` during one of its batches, a script), without stopping the process
 * (docs/running.md#when-the-file-is-locked).
 *
 * SQLite's own wait, `busy_timeout`, sleeps inside the call: better-sqlite3 is synchronous, so the whole event loop
 * stood still for as long as the lock was held, up to the 5 s timeout, for every statement that met it. Nothing else
 * was served meanwhile: no `/health`, no page, no WebSocket ping, no hold countdown tick, and every live display
 * froze with the request. So the connection's own `busy_timeout` is 0 once it is open, and the group-commit driver
 * retries a statement refused with SQLITE_BUSY here, on timers, for LOCK_WAIT_MS in all, before it is refused as
 * `DatabaseBusy` (503 `unavailable`, as before). The caller keeps the connection meanwhile, so the retried
 * statement runs where it would have run: nothing else can begin a transaction on it in between.
 */
import { DatabaseBusy } from './connection-loss.ts';

/** How long a statement waits for another process's lock in all before it is refused: busy_timeout's 5 s, as before. */
const LOCK_WAIT_MS = 5_000;
/** The first pause between tries, doubled after each until LONGEST_PAUSE_MS: a brief lock costs a brief wait. */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 50;
/**
 * A refusal this long after the last one (nobody was trying meanwhile) starts a wait of its own, unless its statement
 * queued before that last refusal.
 */
const SAME_WAIT_MS = 2 * LONGEST_PAUSE_MS;

/**
 * One connection's waits. The statements that queue on the connection behind one waiting share its wait: once it has
 * been refused, each of them is tried once and refused at once while the lock is still held, instead of waiting
 * LOCK_WAIT_MS more each, one after another, behind a lock held for a minute.
 */
export class LockWaits {
  /** When the current wait began: its first refusal. */
  #since = 0;
  /** The latest refusal, or -Infinity once a try went through. */
  #lastRefusal = -Infinity;

  /**
   * `attempt` again, on timers, until it is not refused by a lock (its result, or its other error), or LOCK_WAIT_MS
   * has passed since the wait began (then the last refusal is thrown), or `closed()` says the connection is gone.
   * `queuedAt`: when its statement asked for the connection. One that queued while a wait went on shares that wait,
   * however late its own try comes: on a busy machine the process can stand still for longer than SAME_WAIT_MS between
   * the refusal ahead of it and its try, and then each statement of the queue waited LOCK_WAIT_MS more in turn.
   */
  async retry<T>(attempt: () => T, refused: DatabaseBusy, closed: () => boolean, queuedAt: number): Promise<T> {
    this.#refused(queuedAt);
    const deadline = this.#since + LOCK_WAIT_MS;
    let last = refused;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
      const left = deadline - performance.now();
      if (left <= 0 || closed()) throw last;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      if (closed()) throw last;
      try {
        const result = attempt();
        this.ended();
        return result;
      } catch (error) {
        if (!(error instanceof DatabaseBusy)) throw error;
        last = error;
        this.#refused(queuedAt);
      }
    }
  }

  /** The lock was had (a BEGIN IMMEDIATE went through): the next refusal is a wait of its own. */
  ended(): void {
    this.#lastRefusal = -Infinity;
  }

  #refused(queuedAt: number): void {
    const now = performance.now();
    if (queuedAt > this.#lastRefusal && now - this.#lastRefusal > SAME_WAIT_MS) this.#since = now;
    this.#lastRefusal = now;
  }
}
