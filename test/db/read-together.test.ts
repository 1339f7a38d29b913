/**
 * readTogether (src/db/transaction.ts): the reads of its work see one state of the database, though another write
 * commits meanwhile; the same reads outside it see the write between them (so each check here can fail). On SQLite
 * (the group-commit driver, a real file) the write waits for the reads to end; on PostgreSQL (with
 * TEST_DATABASE_URL) it commits between them, and the second read does not see it. test/scale/read-consistency.test.ts
 * shows what the services read with it, across two instances.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../src/db/database.ts';
import type { Database } from '../../src/db/tables.ts';
import { readTogether, transaction } from '../../src/db/transaction.ts';
import { dropSchema, openPostgresWith, testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';
import { sqliteScratch, type Marks } from '../support/sqlite-scratch.ts';

const BASE = testDatabaseUrl();

const count = async (db: Kysely<Marks> | Transaction<Marks>) => Number((await db.selectFrom('marks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const mark = (db: Kysely<Marks>) => transaction(db, (trx) => trx.insertInto('marks').values({ id: randomBytes(6).toString('hex') }).execute());
const together = <T>(db: Kysely<Marks>, work: (trx: Transaction<Marks>) => Promise<T>) =>
  readTogether(db as unknown as Kysely<Database>, work as unknown as (trx: Transaction<Database>) => Promise<T>);
/** A few turns of the event loop: long enough for a write that can go ahead to be committed. */
const turns = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function postgresMarks(): Promise<Kysely<Marks>> {
  const schema = `together_${randomBytes(5).toString('hex')}`;
  afterThisTest(() => dropSchema(BASE!, schema));
  const database: AppDatabase = await openPostgresWith(BASE!, { schema });
  const db = database.db as unknown as Kysely<Marks>;
  await sql`create table marks (id text primary key)`.execute(db);
  return db;
}

describe('readTogether on SQLite', () => {
  it('keeps a write out until its reads are done; read one after the other, the second saw it', async () => {
    const { db } = await sqliteScratch();
    await mark(db);

    let written: Promise<unknown> | undefined;
    const seen = await together(db, async (trx) => {
      const first = await count(trx);
      written = mark(db);
      await turns();
      return [first, await count(trx)];
    });
    expect(seen).toEqual([1, 1]);
    await written;
    expect(await count(db)).toBe(2);

    const first = await count(db);
    const write = mark(db);
    await turns();
    expect([first, await count(db)]).toEqual([2, 3]);
    await write;
  });
});

describe.runIf(BASE)('readTogether on PostgreSQL', () => {
  it('reads from one snapshot while a write commits between its reads; read one after the other, the second saw it', async () => {
    const db = await postgresMarks();
    await mark(db);

    const seen = await together(db, async (trx) => {
      const first = await count(trx);
      await mark(db); // on another connection of the pool, committed here
      return [first, await count(trx)];
    });
    expect(seen).toEqual([1, 1]);
    expect(await count(db)).toBe(2);

    const first = await count(db);
    await mark(db);
    expect([first, await count(db)]).toEqual([2, 3]);
  });

  it('is read-only: a write in it is refused, and nothing is stored', async () => {
    const db = await postgresMarks();
    await expect(together(db, (trx) => trx.insertInto('marks').values({ id: 'x' }).execute())).rejects.toThrow(/read-only transaction/u);
    expect(await count(db)).toBe(0);
  });
});
