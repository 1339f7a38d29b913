/**
 * A gateway SQLite database on a fresh file (createDatabase, so the group-commit driver) with a scratch table
 * `marks`, and a second connection on the file that sees only what is committed, as another process would: for the
 * tests of src/db/group-commit.ts and its neighbours. Closed after the test.
 */
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { compiledOnce } from '../../src/db/compiled-once.ts';
import { createDatabase, type AppDatabase, type Db } from '../../src/db/database.ts';
import { afterThisTest } from './gateway.ts';
import { tempDir } from './temp-dir.ts';

export interface Marks {
  marks: { id: string };
}

// Sent straight to the group-commit driver (runDirect), as the hot paths' statements are. The scratch table is not in
// the gateway's schema: the queries are built on its Kysely, typed for it.
export const insertMark = compiledOnce((db: Db, v: { id: string }) => (db as unknown as Kysely<Marks>).insertInto('marks').values({ id: v.id }));
export const countMarks = compiledOnce((db: Db, _: Record<string, never>) =>
  (db as unknown as Kysely<Marks>).selectFrom('marks').select((eb) => eb.fn.countAll<number>().as('n')),
);

export interface SqliteScratch {
  app: AppDatabase;
  path: string;
  /** The gateway's Kysely, typed for the scratch table. */
  db: Kysely<Marks>;
  /** Whether the mark `id` is committed, as a second connection sees it. */
  committed(id: string): boolean;
  /** Inserts the mark `id` in a transaction of its own. */
  mark(id: string): Promise<unknown>;
}

export async function sqliteScratch(): Promise<SqliteScratch> {
  const path = join(tempDir(), 'scratch.db');
  const app = await createDatabase({ kind: 'sqlite', path, synchronous: 'full' });
  const db = app.db as unknown as Kysely<Marks>;
  afterThisTest(() => app.destroy()); // a second destroy, after a test's own, does nothing
  await sql`create table marks (id text primary key)`.execute(db);
  const reader = new SQLite(path, { readonly: true });
  afterThisTest(async () => void reader.close());
  const marked = reader.prepare('select count(*) as n from marks where id = ?');
  return {
    app,
    path,
    db,
    committed: (id) => (marked.get(id) as { n: number }).n === 1,
    mark: (id) => db.transaction().execute((trx) => trx.insertInto('marks').values({ id }).execute()),
  };
}
