/**
 * Group commit on SQLite (src/db/group-commit.ts): transactions that end in one turn of the event loop share one
 * COMMIT, each caller is answered only once the COMMIT holding its work has run, one member's failure costs the
 * others nothing, a failed COMMIT fails every member and stores none of them, and a statement outside a transaction
 * while a batch is open is answered after its COMMIT. Watched from a second connection on the same file, as another
 * process would see it. Each test runs twice: through kysely's TransactionBuilder, and through src/db/transaction.ts,
 * which the services use and which goes past it to the driver.
 */
import SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MAX_MEMBERS } from '../../src/db/group-commit.ts';
import { transaction } from '../../src/db/transaction.ts';
import { sqliteScratch } from '../support/sqlite-scratch.ts';

interface Scratch {
  marks: { id: string };
  parents: { id: string };
  children: { id: string; parent: string };
}

type Open = <T>(db: Kysely<Scratch>, work: (trx: Transaction<Scratch>) => Promise<T>) => Promise<T>;

const WAYS: Array<[string, Open]> = [
  ["kysely's TransactionBuilder", (db, work) => db.transaction().execute(work)],
  ['transaction() past it', (db, work) => transaction(db, work)],
];

describe.each(WAYS)('group commit on SQLite, transactions opened by %s', (_, open) => {
  /** The scratch database with two more tables, whose deferred foreign key can make a COMMIT fail. */
  async function scratch() {
    const { app, path, db: marks, committed } = await sqliteScratch();
    const db = marks as unknown as Kysely<Scratch>;
    await sql`create table parents (id text primary key)`.execute(db);
    // Checked at COMMIT only: the one way here for a COMMIT to fail.
    await sql`create table children (id text primary key, parent text references parents (id) deferrable initially deferred)`.execute(db);
    const mark = (id: string) => open(db, (trx) => trx.insertInto('marks').values({ id }).execute());
    return { app, db, path, committed, mark };
  }

  it('commits the transactions of one turn together, and answers each only once its work is committed', async () => {
    const { db, committed, mark } = await scratch();
    const seenByLater: boolean[] = [];
    const answeredCommitted: boolean[] = [];
    const transactions = ['a', 'b', 'c'].map((id) =>
      open(db, async (trx) => {
          seenByLater.push(committed('a'));
          await trx.insertInto('marks').values({ id }).execute();
        })
        .then(() => answeredCommitted.push(committed(id))),
    );
    await Promise.all(transactions);
    // With a COMMIT per transaction, 'a' was on disk before 'b' began.
    expect(seenByLater).toEqual([false, false, false]);
    expect(answeredCommitted).toEqual([true, true, true]);
    await mark('d');
    expect(committed('d')).toBe(true);
  });

  it('rolls back a failed transaction alone; the others of its batch are committed', async () => {
    const { db, committed } = await scratch();
    const results = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) =>
        open(db, async (trx) => {
          await trx.insertInto('marks').values({ id }).execute();
          if (id === 'b') throw new Error('b refuses');
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(['a', 'b', 'c'].map(committed)).toEqual([true, false, true]);
  });

  it('fails every member of a batch whose COMMIT fails, stores none of them, and commits the next batch', async () => {
    const { db, committed, mark } = await scratch();
    const results = await Promise.allSettled([
      mark('a'),
      open(db, (trx) => trx.insertInto('children').values({ id: 'orphan', parent: 'nobody' }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/u);
    expect(committed('a')).toBe(false);
    await mark('b');
    expect(committed('b')).toBe(true);
  });

  it('runs a statement outside a transaction inside the open batch and answers it after the COMMIT', async () => {
    const { db, committed, mark } = await scratch();
    const written = mark('a');
    const read = db
      .selectFrom('marks')
      .select('id')
      .execute()
      .then((rows) => ({ rows, committedWhenAnswered: committed('a') }));
    await written;
    expect(await read).toEqual({ rows: [{ id: 'a' }], committedWhenAnswered: true });
    // With no batch open, a statement runs at once in autocommit.
    await db.insertInto('marks').values({ id: 'lone' }).execute();
    expect(committed('lone')).toBe(true);
  });

  it('keeps the COMMIT for a transaction that awaits across turns, then commits both', async () => {
    const { db, committed, mark } = await scratch();
    const first = mark('a');
    let seenWhileSecondRan: boolean | undefined;
    const second = open(db, async (trx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seenWhileSecondRan = committed('a');
      await trx.insertInto('marks').values({ id: 'b' }).execute();
    });
    await Promise.all([first, second]);
    expect(seenWhileSecondRan).toBe(false);
    expect([committed('a'), committed('b')]).toEqual([true, true]);
  });

  it(`puts at most ${MAX_MEMBERS} transactions in one COMMIT`, async () => {
    const { db, committed } = await scratch();
    const firstSeen: boolean[] = [];
    await Promise.all(
      Array.from({ length: MAX_MEMBERS + 2 }, (_, n) =>
        open(db, async (trx) => {
          firstSeen.push(committed('m0'));
          await trx.insertInto('marks').values({ id: `m${n}` }).execute();
        }),
      ),
    );
    const firstBatch = firstSeen.slice(0, MAX_MEMBERS);
    expect(firstBatch.every((seen) => !seen)).toBe(true);
    expect(firstSeen.slice(MAX_MEMBERS)).toEqual([true, true]);
  });

  it('commits an open batch when the database is closed', async () => {
    const { app, db, path } = await scratch();
    let closed: Promise<void> | undefined;
    await open(db, async (trx) => {
      await trx.insertInto('marks').values({ id: 'last' }).execute();
      // Runs before the COMMIT scheduled at this transaction's end, which then finds nothing left to commit.
      setImmediate(() => (closed = app.destroy()));
    });
    await closed;
    const again = new SQLite(path, { readonly: true });
    expect(again.prepare('select id from marks').all()).toEqual([{ id: 'last' }]);
    again.close();
  });
});
