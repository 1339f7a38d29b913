/**
 * Waiting for SQLite's write lock while another process holds it (an operator's `sqlite3` shell inside a
 * transaction, `npm run vault:rotate` between its batches, a backup script), without stopping the process
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
export const LOCK_WAIT_MS = 5_000;
/** The first pause between tries, doubled after each until LONGEST_PAUSE_MS: a brief lock costs a brief wait. */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 50;

/**
 * `attempt` again, on timers, until it is not refused by a lock (its result, or its other error) or LOCK_WAIT_MS
 * has passed since the first refusal, `refused` (then the last refusal is thrown), or `closed()` says the connection
 * is gone.
 */
export async function retryWhileLocked<T>(attempt: () => T, refused: DatabaseBusy, closed: () => boolean): Promise<T> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  let last = refused;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
    const left = deadline - performance.now();
    if (left <= 0 || closed()) throw last;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    if (closed()) throw last;
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof DatabaseBusy)) throw error;
      last = error;
    }
  }
}
