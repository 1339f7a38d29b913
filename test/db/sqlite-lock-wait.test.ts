/**
 * Another process holding SQLite's write lock (src/db/lock-wait.ts): the gateway's statement waits for it on timers,
 * not inside SQLite's busy_timeout, so the event loop goes on meanwhile; once the lock is released the statement runs
 * where it would have run. The lock is held here by a second connection on the same file, as another process's.
 */
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseBusy } from '../../src/db/connection-loss.ts';
import { LockWaits } from '../../src/db/lock-wait.ts';
import type { Db } from '../../src/db/database.ts';
import { afterThisTest } from '../support/gateway.ts';
import { countMarks, insertMark, sqliteScratch } from '../support/sqlite-scratch.ts';

/** A second connection on `path` that takes the write lock now; `release()` rolls it back. */
function holdLock(path: string): { release(): void } {
  const other = new SQLite(path);
  afterThisTest(async () => void other.close());
  other.exec('begin immediate');
  return { release: () => other.exec('rollback') };
}

/** Whether `promise` has settled, looked at after the event loop has run its timers for `ms`. */
async function settledAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe("a statement that meets another process's write lock", () => {
  it('waits for it with the event loop free, and the transaction commits once the lock is released', async () => {
    const { path, mark, committed } = await sqliteScratch();
    const lock = holdLock(path);
    const marking = mark('after-the-lock');
    // With busy_timeout's wait inside the call, this timer only fired once the transaction had been refused.
    expect(await settledAfter(marking, 100)).toBe(false);
    lock.release();
    await marking;
    expect(committed('after-the-lock')).toBe(true);
  });

  it('waits the same way for a statement of no transaction, and then the next transaction goes through', async () => {
    const { path, db, mark, committed } = await sqliteScratch();
    const lock = holdLock(path);
    const inserting = db.insertInto('marks').values({ id: 'alone' }).execute();
    // Queued behind it on the one connection: it runs after the insert, not inside anything of another caller's.
    const after = mark('queued');
    expect(await settledAfter(inserting, 100)).toBe(false);
    lock.release();
    await Promise.all([inserting, after]);
    expect([committed('alone'), committed('queued')]).toEqual([true, true]);
  });

  it('keeps the connection while a statement sent straight to the driver waits: what queued behind it runs after it', async () => {
    const { path, db } = await sqliteScratch();
    const lock = holdLock(path);
    const inserting = insertMark(db as unknown as Db, { id: 'direct' });
    // A read needs no lock, but it queued behind the insert on the one connection: it must not overtake it.
    const counting = countMarks(db as unknown as Db, {});
    expect(await settledAfter(counting, 100)).toBe(false);
    lock.release();
    await inserting;
    expect((await counting).rows).toEqual([{ n: 1 }]);
  });

  it('is refused as DatabaseBusy when the database is closed while it waits, instead of waiting on', async () => {
    const { app, path, mark } = await sqliteScratch();
    holdLock(path);
    const marking = mark('never');
    expect(await settledAfter(marking, 50)).toBe(false);
    await app.destroy();
    await expect(marking).rejects.toBeInstanceOf(DatabaseBusy);
  });

  it('refuses at once what queued behind a statement that waited the lock out, and waits again for a later lock', { timeout: 30_000 }, async () => {
    const { path, mark, committed } = await sqliteScratch();
    const lock = holdLock(path);
    const first = mark('first');
    const queued = mark('queued'); // behind it on the one connection
    await expect(first).rejects.toBeInstanceOf(DatabaseBusy);
    // It shares the wait that was just refused: one try, not 5 s more of its own (a queue behind a lock held for a
    // minute was refused one by one, 5 s each).
    expect(await settledAfter(queued, 50)).toBe(true);
    await expect(queued).rejects.toBeInstanceOf(DatabaseBusy);
    lock.release();
    await mark('free');

    // A later lock is a wait of its own, however soon after: the BEGIN that went through ended the last one.
    const later = holdLock(path);
    const waiting = mark('later');
    expect(await settledAfter(waiting, 200)).toBe(false);
    later.release();
    await waiting;
    expect([committed('first'), committed('queued'), committed('free'), committed('later')]).toEqual([false, false, true, true]);
  });
});

describe('LockWaits, the shared wait', () => {
  const refusal = () => new DatabaseBusy(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));

  it('refuses at once a statement that queued during a refused wait, however long the process stalled before its try', { timeout: 30_000 }, async () => {
    const waits = new LockWaits();
    const queuedAt = performance.now(); // the statement queued behind the first, on the one connection
    await expect(waits.retry(() => { throw refusal(); }, refusal(), () => false, performance.now())).rejects.toBeInstanceOf(DatabaseBusy);
    // A busy machine: the process is not scheduled for a while between the first refusal and the queued one's try.
    const stalledUntil = performance.now() + 250;
    while (performance.now() < stalledUntil);
    const queued = waits.retry(() => { throw refusal(); }, refusal(), () => false, queuedAt);
    expect(await settledAfter(queued, 50)).toBe(true);
    await expect(queued).rejects.toBeInstanceOf(DatabaseBusy);
  });
});
