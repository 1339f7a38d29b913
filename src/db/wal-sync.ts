/**
 * The sync of SQLite's write-ahead log at each group commit, done by the group-commit driver on libuv's thread pool
 * instead of by SQLite on the event loop (docs/running.md#group-commit).
 *
 * With `synchronous = FULL`, SQLite's COMMIT writes the transaction's frames to the WAL and then calls fsync on it
 * before it returns. better-sqlite3 is synchronous, so the whole process waits for the disk, often 0.5 to 1 ms,
 * and serves nothing meanwhile. The connection therefore runs at NORMAL. With WAL, NORMAL does everything FULL
 * does except that one fsync at commit: it still syncs the WAL header when the log restarts, and the log and the
 * database at each checkpoint. The driver then makes the same fsync of the same file itself, with `fs.fsync` on the
 * thread pool, after the COMMIT and before any caller of the batch is answered. The disk sees the same writes in
 * the same order, followed by the same sync. The event loop meanwhile serves other requests and gathers the next
 * batch.
 *
 * Linux's fsync flushes the file, whichever descriptor asks: this one is opened on the `-wal` file SQLite keeps
 * for as long as a connection is open.
 */
import { closeSync, fsync, openSync } from 'node:fs';

/** Syncs what was written to the log so far; calls `done` once it is on disk (or with the error). */
export interface LogSync {
  sync(done: (error: Error | null) => void): void;
  close(): void;
}

export function walSyncOf(databasePath: string): LogSync {
  let fd: number | undefined;
  return {
    sync(done) {
      try {
        // Opened on first use: the log exists once the database has been written to (the migrations write first).
        fd ??= openSync(`${databasePath}-wal`, 'r+');
      } catch (error) {
        // No log yet: nothing was written to it, so nothing waits for a sync (a pragma, a statement that wrote no row).
        done((error as NodeJS.ErrnoException).code === 'ENOENT' ? null : (error as Error));
        return;
      }
      fsync(fd, (error) => done(error));
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * The group-commit driver's syncs of the log: at most one in flight, and one more queued behind it for every commit
 * made meanwhile (their work may have been written after the running one began, so it may not cover them). Under
 * load that is one fsync per fsync's time, however many batches commit during it: the same gathering PostgreSQL's
 * WAL writer does.
 */
export class LogSyncs {
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  #failed: Error | null = null;

  constructor(private readonly log: LogSync) {}

  /** The sync that covers everything written so far, if one is needed: a read that may have seen it waits for it. */
  get pending(): Promise<void> | null {
    return this.#queued ?? this.#running;
  }

  /** Set once a sync failed (see #fail); every later statement fails with it. */
  get failed(): Error | null {
    return this.#failed;
  }

  /** A sync of everything written to the log so far; the next batch runs meanwhile. */
  sync(): Promise<void> {
    if (this.#running === null) return this.#start();
    this.#queued ??= this.#running.then(
      () => this.#startQueued(),
      () => this.#startQueued(),
    );
    return this.#queued;
  }

  close(): void {
    this.log.close();
  }

  #startQueued(): Promise<void> {
    this.#queued = null;
    return this.#start();
  }

  #start(): Promise<void> {
    const synced = this.#failed
      ? Promise.reject(this.#failed)
      : new Promise<void>((resolve, reject) => this.log.sync((error) => (error ? reject(this.#fail(error)) : resolve())));
    this.#running = synced;
    const done = () => {
      if (this.#running === synced) this.#running = null;
    };
    synced.then(done, done);
    return synced;
  }

  /**
   * A failed fsync may have dropped the written pages it could not flush, and a later sync can report success
   * without them. As PostgreSQL does (it stops), nothing more is answered as stored: every later statement fails,
   * and /ready with it, until the gateway is restarted and SQLite recovers from what is on disk.
   */
  #fail(error: Error): Error {
    this.#failed ??= new Error('the database could not sync its write-ahead log; restart the gateway', { cause: error });
    return this.#failed;
  }
}
