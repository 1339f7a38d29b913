/**
 * The group-commit driver's own sync of SQLite's log (src/db/wal-sync.ts, docs/running.md#group-commit): a caller
 * is answered only once the sync that follows the COMMIT of its work is done; the next batches run meanwhile and
 * share one sync after it; a read that may have seen work not yet synced waits for that sync; a write outside a
 * transaction gets a sync of its own; a failed sync fails its callers and everything after. The syncs are the real ones (fsync of the -wal file), held
 * back here until the test lets each go. A second connection on the file shows what is committed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { walSyncOf, type LogSync } from '../../src/db/wal-sync.ts';
import { sqliteScratch } from '../support/sqlite-scratch.ts';

let gates: Gate[] = [];
afterEach(() => {
  // Before the database is closed (it waits for the syncs in flight): let every held sync go.
  for (const gate of gates) {
    gate.holding = false;
    gate.release();
  }
  gates = [];
});

/** Real syncs, each held while `holding` until release(); `failWith` makes the next ones fail instead. */
class Gate {
  holding = false;
  failWith: Error | null = null;
  calls = 0;
  private held: Array<() => void> = [];

  logSync = (path: string): LogSync => {
    const real = walSyncOf(path);
    return {
      sync: (done) => {
        this.calls++;
        const go = () => (this.failWith ? done(this.failWith) : real.sync(done));
        if (this.holding) this.held.push(go);
        else go();
      },
      close: () => real.close(),
    };
  };

  release(): void {
    for (const go of this.held.splice(0)) go();
  }
}

async function scratch() {
  const gate = new Gate();
  gates.push(gate);
  const { db, committed, mark } = await sqliteScratch({ logSync: gate.logSync });
  /** Whether `promise` has settled after the pending turns of the event loop (a held sync never lets it). */
  const settled = async (promise: Promise<unknown>) => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    return done;
  };
  return { db, gate, committed, mark, settled };
}

describe("the group-commit driver's sync of the log", () => {
  it('answers a transaction only once the sync after its COMMIT is done, and runs the next batches meanwhile', async () => {
    const { gate, committed, mark, settled } = await scratch();
    gate.holding = true;
    const calls = gate.calls;
    const first = mark('a');
    expect(await settled(first)).toBe(false);
    expect(committed('a')).toBe(true); // committed, not yet answered: its sync is held
    const second = mark('b'); // a batch of its own while the first one's sync is in flight
    const third = mark('c');
    expect(await settled(Promise.race([second, third]))).toBe(false);
    expect([committed('b'), committed('c')]).toEqual([true, true]);
    // One sync in flight; the batches committed meanwhile wait for one more, which starts when it is done.
    expect(gate.calls).toBe(calls + 1);
    gate.holding = false;
    gate.release();
    await Promise.all([first, second, third]);
    expect(gate.calls).toBe(calls + 2);
  });

  it('answers a read outside a transaction after the sync in flight, and a write after a sync of its own', async () => {
    const { db, gate, mark, settled } = await scratch();
    gate.holding = true;
    const written = mark('a');
    await settled(written);
    const read = db.selectFrom('marks').select('id').execute();
    expect(await settled(read)).toBe(false); // it may have read 'a', whose sync is held
    const calls = gate.calls;
    const lone = db.insertInto('marks').values({ id: 'lone' }).execute();
    expect(await settled(lone)).toBe(false);
    gate.holding = false;
    gate.release();
    expect(await read).toEqual([{ id: 'a' }]);
    await Promise.all([written, lone]);
    expect(gate.calls).toBe(calls + 1); // the write's own sync, after the one in flight
  });

  it('fails the callers of a failed sync, and every statement after it', async () => {
    const { db, gate, committed, mark } = await scratch();
    gate.failWith = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    await expect(mark('a')).rejects.toThrow('could not sync its write-ahead log');
    expect(committed('a')).toBe(true); // on the page cache, not known to be on disk: not answered as stored
    await expect(db.selectFrom('marks').select('id').execute()).rejects.toThrow('could not sync its write-ahead log');
    await expect(mark('b')).rejects.toThrow('could not sync its write-ahead log');
    expect(committed('b')).toBe(false);
  });
});
