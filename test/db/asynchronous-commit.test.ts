/**
 * Transactions that may repeat, committed without waiting for the disk (src/db/asynchronous-commit.ts,
 * src/db/batch-durability.ts, docs/running.md#asynchronous-commit): on SQLite a batch begun by one runs under
 * `synchronous = NORMAL` and nothing else does (no other transaction, no write of its own); on PostgreSQL the
 * transaction alone has `synchronous_commit = off`. Each is still committed, and seen by another connection, once
 * answered. The level each statement ran under is read with `PRAGMA synchronous` (1 NORMAL, 2 FULL) in its place.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withAsynchronousCommit } from '../../src/db/asynchronous-commit.ts';
import { createDatabase, type AppDatabase, type Db } from '../../src/db/database.ts';
import { testDatabaseUrl } from '../support/databases.ts';
import { sqliteScratch, type Marks } from '../support/sqlite-scratch.ts';

const synchronous = async (db: Kysely<Marks>) => (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db)).rows[0]!.synchronous;

/** A transaction of `app` that may repeat, on the scratch table's Kysely. */
const mayRepeat = <T>(app: AppDatabase, work: (trx: Kysely<Marks>) => Promise<T>) => withAsynchronousCommit(app, (trx) => work(trx as unknown as Kysely<Marks>));

describe('asynchronous commit on SQLite', () => {
  it('runs a transaction that may repeat under NORMAL, commits it before answering, and puts FULL back', async () => {
    const { app, db, committed } = await sqliteScratch();
    const level = await mayRepeat(app, async (trx) => {
      await trx.insertInto('marks').values({ id: 'a' }).execute();
      return synchronous(trx);
    });
    expect(level).toBe(1);
    expect(committed('a')).toBe(true);
    expect(await synchronous(db)).toBe(2);
    expect(await db.transaction().execute((trx) => synchronous(trx))).toBe(2);
  });

  it('commits the batch that skips the sync before another transaction begins, which then syncs', async () => {
    const { app, db, committed } = await sqliteScratch();
    const [, seen] = await Promise.all([
      mayRepeat(app, (trx) => trx.insertInto('marks').values({ id: 'a' }).execute()),
      // Asked for in the same turn, so without the rule it would join the batch of 'a'.
      db.transaction().execute(async (trx) => ({ level: await synchronous(trx), aCommitted: committed('a') })),
    ]);
    expect(seen).toEqual({ level: 2, aCommitted: true });
  });

  it('lets a transaction that may repeat join a batch that syncs, as it is', async () => {
    const { app, db, committed } = await sqliteScratch();
    const [, seen] = await Promise.all([
      db.transaction().execute((trx) => trx.insertInto('marks').values({ id: 'a' }).execute()),
      mayRepeat(app, async (trx) => ({ level: await synchronous(trx), aCommitted: committed('a') })),
    ]);
    expect(seen).toEqual({ level: 2, aCommitted: false });
    expect(committed('a')).toBe(true);
  });

  it('lets a read of its own join a batch that skips the sync, and runs a write of its own alone, synced', async () => {
    const { app, db, committed } = await sqliteScratch();
    const outside: Array<Promise<unknown>> = [];
    await mayRepeat(app, async (trx) => {
      await trx.insertInto('marks').values({ id: 'a' }).execute();
      // Queued for the connection while the transaction holds it: they run once it has joined its batch, in order.
      outside.push(synchronous(db), db.insertInto('marks').values({ id: 'w' }).execute(), synchronous(db));
    });
    const [readBefore, , readAfter] = await Promise.all(outside);
    expect(readBefore).toBe(1);
    expect(readAfter).toBe(2);
    expect([committed('a'), committed('w')]).toEqual([true, true]);
  });

  it('runs a write of its own that returns rows alone, synced, too', async () => {
    const { app, db, committed } = await sqliteScratch();
    const outside: Array<Promise<unknown>> = [];
    await mayRepeat(app, async (trx) => {
      await trx.insertInto('marks').values({ id: 'a' }).execute();
      // A reader to SQLite (it returns rows), yet a write.
      outside.push(db.insertInto('marks').values({ id: 'w' }).returning('id').execute(), synchronous(db));
    });
    const [written, readAfter] = await Promise.all(outside);
    expect(written).toEqual([{ id: 'w' }]);
    expect(readAfter).toBe(2);
    expect([committed('a'), committed('w')]).toEqual([true, true]);
  });

  it('changes nothing when the database is configured NORMAL', async () => {
    const normal = await createDatabase({ kind: 'sqlite', path: ':memory:', synchronous: 'normal' });
    try {
      expect(await mayRepeat(normal, (trx) => synchronous(trx))).toBe(1);
      expect(await synchronous(normal.db as unknown as Kysely<Marks>)).toBe(1);
    } finally {
      await normal.destroy();
    }
  });
});

const BASE = testDatabaseUrl();

describe.runIf(BASE)('asynchronous commit on PostgreSQL', () => {
  it('turns synchronous_commit off for the transaction alone', async () => {
    const database = await createDatabase({ kind: 'postgres', url: BASE! });
    try {
      const show = async (db: Db) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;
      expect(await withAsynchronousCommit(database, (trx) => show(trx))).toBe('off');
      expect(await database.db.transaction().execute((trx) => show(trx))).toBe('on');
      expect(await show(database.db)).toBe('on');
    } finally {
      await database.destroy();
    }
  });
});
