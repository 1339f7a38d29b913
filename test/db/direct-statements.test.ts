/**
 * Statements sent straight to the group-commit driver (src/db/group-commit.ts runDirect, through compiledOnce and
 * executeCompiled), past kysely's executor: the same rules as kysely's way. Inside a transaction a statement is part
 * of that transaction's member (rolled back with it); outside one it never runs inside another caller's
 * transaction, and with a batch open it is answered only after the batch's COMMIT. Watched from a second connection
 * on the same file, as another process would see it.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { executeCompiled } from '../../src/db/compiled-once.ts';
import type { Db } from '../../src/db/database.ts';
import { countMarks, insertMark, sqliteScratch, type Marks } from '../support/sqlite-scratch.ts';

const scratch = sqliteScratch;

const asDb = (db: Kysely<Marks>) => db as unknown as Db;

describe('statements sent straight to the group-commit driver', () => {
  it('gives the same results as kysely, in and out of a transaction', async () => {
    const { db } = await scratch();
    const inserted = await insertMark(asDb(db), { id: 'a' });
    expect(inserted.numAffectedRows).toBe(1n);
    await db.transaction().execute(async (trx) => {
      await insertMark(asDb(trx), { id: 'b' });
      expect((await countMarks(asDb(trx), {})).rows).toEqual([{ n: 2 }]);
    });
    expect((await executeCompiled(asDb(db), sql<{ id: string }>`select id from marks order by id`.compile(db))).rows).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it("rolls a transaction's statements back with it, and the other members of its batch keep theirs", async () => {
    const { db, committed } = await scratch();
    const failing = db.transaction().execute(async (trx) => {
      await insertMark(asDb(trx), { id: 'undone' });
      throw new Error('the transaction fails');
    });
    const kept = db.transaction().execute((trx) => insertMark(asDb(trx), { id: 'kept' }));
    await expect(failing).rejects.toThrow('the transaction fails');
    await kept;
    expect([committed('undone'), committed('kept')]).toEqual([false, true]);
  });

  it("never runs a statement of no transaction inside another caller's transaction", async () => {
    const { db, committed } = await scratch();
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await insertMark(asDb(trx), { id: 'inside' });
      await holding; // the transaction holds the connection across turns
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setImmediate(resolve));
    // Sent while the transaction holds the connection: it waits its turn instead of joining that transaction.
    const outside = insertMark(asDb(db), { id: 'outside' });
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await outside;
    expect([committed('inside'), committed('outside')]).toEqual([false, true]);
  });

  it('answers a statement of no transaction sent while a batch is open only after its COMMIT', async () => {
    const { db, committed } = await scratch();
    const written = db.transaction().execute((trx) => insertMark(asDb(trx), { id: 'a' }));
    // Queued before the member's end scheduled its COMMIT (at setImmediate too), so it runs between the two: the
    // connection is free and the batch open.
    const { read, committedWhenSent } = await new Promise<{ read: Promise<unknown>; committedWhenSent: boolean }>((resolve) =>
      setImmediate(() =>
        resolve({ committedWhenSent: committed('a'), read: countMarks(asDb(db), {}).then(({ rows }) => ({ rows, committedWhenAnswered: committed('a') })) }),
      ),
    );
    await written;
    expect(committedWhenSent).toBe(false);
    expect(await read).toEqual({ rows: [{ n: 1 }], committedWhenAnswered: true });
  });
});
