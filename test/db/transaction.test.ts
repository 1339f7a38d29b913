/**
 * src/db/transaction.ts, the services' way to open a transaction: on SQLite it goes past kysely's
 * TransactionBuilder to the group-commit driver (test/db/group-commit.test.ts runs every rule of group commit
 * through both ways). Here: that it is cheaper in promises, the point of it; and that it refuses what kysely's way
 * refuses, storing nothing.
 */
import { createHook } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { transaction } from '../../src/db/transaction.ts';
import { createDatabase } from '../../src/db/database.ts';
import { insertMark, sqliteScratch, type Marks } from '../support/sqlite-scratch.ts';

/**
 * How many promises `work` makes, counted by an async hook (as the request scope's storage sees them on Node 20). The
 * hook counts every promise the process makes meanwhile, and a worker runs suites one after another in one process
 * (`isolate: false`), so what an earlier suite left running can add some (a CI run counted 29 for 12): the fewest of
 * five runs is the work's own.
 */
async function promisesOf(work: (run: number) => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (let run = 0; run < 5; run++) {
    let count = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && count++) });
    hook.enable();
    try {
      await work(run);
    } finally {
      hook.disable();
    }
    counts.push(count);
  }
  return Math.min(...counts);
}

describe('transaction() on SQLite', () => {
  it('makes far fewer promises than kysely’s TransactionBuilder for the same work, which it commits', async () => {
    const { db, committed } = await sqliteScratch();
    // A statement sent straight to the driver, as the services' are (compiled-once.ts): the promises left are the transaction's.
    const insert = (id: string) => (trx: Kysely<Marks>) => insertMark(trx as never, { id });
    await db.transaction().execute(insert('warm-kysely'));
    await transaction(db, insert('warm-direct'));
    const kysely = await promisesOf((run) => db.transaction().execute(insert(`a${run}`)));
    const direct = await promisesOf((run) => transaction(db, insert(`b${run}`)));
    expect([committed('a4'), committed('b4')]).toEqual([true, true]);
    expect(direct).toBeGreaterThan(0);
    // Node 20.20, kysely 0.28: 37 and 12 (the statement, in kysely's transaction, goes through its executor, which
    // refuses it once that transaction has ended). Through kysely's way the ratio is 1.
    expect(direct).toBeLessThan(kysely * 0.7);
  });

  it('refuses a transaction opened on a transaction, as kysely does, and stores nothing', async () => {
    const { db, committed } = await sqliteScratch();
    const nested = transaction(db, async (trx) => {
      await trx.insertInto('marks').values({ id: 'outer' }).execute();
      await transaction(trx as Kysely<Marks>, (inner) => inner.insertInto('marks').values({ id: 'inner' }).execute());
    });
    await expect(nested).rejects.toThrow('calling the transaction method for a Transaction is not supported');
    expect([committed('outer'), committed('inner')]).toEqual([false, false]);
  });

  it('refuses a query on a transaction that has ended, as kysely’s own transaction does, and stores nothing', async () => {
    const { db, committed } = await sqliteScratch();
    const ways = { kysely: (work: (trx: Kysely<Marks>) => Promise<unknown>) => db.transaction().execute(work), direct: (work: (trx: Kysely<Marks>) => Promise<unknown>) => transaction(db, work) };
    for (const [name, open] of Object.entries(ways)) {
      let kept: Kysely<Marks> | undefined;
      await open(async (trx) => void (kept = trx));
      await expect(kept!.insertInto('marks').values({ id: `${name}-late` }).execute(), name).rejects.toThrow('Transaction is already committed');
      await expect(open(async (trx) => ((kept = trx), Promise.reject(new Error('refused')))), name).rejects.toThrow('refused');
      await expect(kept!.insertInto('marks').values({ id: `${name}-later` }).execute(), name).rejects.toThrow('Transaction is already rolled back');
      expect([committed(`${name}-late`), committed(`${name}-later`)]).toEqual([false, false]);
    }
    // A statement sent past kysely's executor (compiled-once.ts) too, on a transaction opened either way (kysely's is
    // the way with tracing on), while another transaction holds the connection: it is refused, not run in that one.
    for (const [name, open] of Object.entries(ways)) {
      let ended: Kysely<Marks> | undefined;
      await open(async (trx) => void (ended = trx));
      const stale = await transaction(db, async (trx) => {
        const late = insertMark(ended as never, { id: `${name}-stale` }).then(() => 'ran', String);
        await insertMark(trx as never, { id: `${name}-current` });
        return late;
      });
      expect(stale, name).toMatch('Transaction is already committed');
      expect([committed(`${name}-stale`), committed(`${name}-current`)], name).toEqual([false, true]);
    }
  });

  it('refuses a transaction after the database is closed with kysely’s own error', async () => {
    const { app, db } = await sqliteScratch();
    await app.destroy();
    const insert = (trx: Kysely<Marks>) => trx.insertInto('marks').values({ id: 'late' }).execute();
    await expect(db.transaction().execute(insert)).rejects.toThrow('driver has already been destroyed');
    await expect(transaction(db, insert)).rejects.toThrow('driver has already been destroyed');
  });

  it('is kysely’s TransactionBuilder on PostgreSQL', async (context) => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return context.skip();
    const schema = `tx_${process.pid}_${Date.now().toString(36)}`;
    const app = await createDatabase({ kind: 'postgres', url: `${url}?schema=${schema}` });
    try {
      const db = app.db as unknown as Kysely<Marks>;
      await sql`create table marks (id text primary key)`.execute(db);
      const failed = transaction(db, async (trx) => {
        await trx.insertInto('marks').values({ id: 'rolled-back' }).execute();
        throw new Error('refused');
      });
      await expect(failed).rejects.toThrow('refused');
      await transaction(db, (trx) => trx.insertInto('marks').values({ id: 'kept' }).execute());
      expect(await db.selectFrom('marks').select('id').execute()).toEqual([{ id: 'kept' }]);
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(app.db);
      await app.destroy();
    }
  });
});
