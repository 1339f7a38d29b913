/**
 * Statements kept by SQL text (src/db/sqlite-statements.ts): prepared once, reused while idle, a fresh one while
 * the kept one is busy, and no more than MAX_KEPT of them; and the pragmas every connection is opened with
 * (synchronous = FULL by default, its sync at commit made by the group-commit driver; SQLITE_SYNCHRONOUS=normal to
 * choose NORMAL).
 */
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { keepStatements, MAX_KEPT } from '../../src/db/sqlite-statements.ts';
import { createDatabase } from '../../src/db/database.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { walSyncOf } from '../../src/db/wal-sync.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('kept SQLite statements', () => {
  it('prepares a statement once and hands the same one out again', () => {
    const sqlite = new SQLite(':memory:');
    const kept = keepStatements(sqlite);
    const first = kept.prepare('select 1 as one');
    expect(kept.prepare('select 1 as one')).toBe(first);
    expect(kept.prepare('select 2 as two')).not.toBe(first);
    expect(kept.size).toBe(2);
    kept.close();
  });

  it('prepares a fresh statement while the kept one is busy (an unfinished iterate)', () => {
    const sqlite = new SQLite(':memory:');
    const kept = keepStatements(sqlite);
    const sql = 'select 1 as n union all select 2';
    const iterator = kept.prepare(sql).iterate([]);
    iterator.next();
    const other = kept.prepare(sql);
    expect(other.all([])).toEqual([{ n: 1 }, { n: 2 }]);
    iterator.return?.();
    expect(kept.prepare(sql).all([])).toEqual([{ n: 1 }, { n: 2 }]);
    kept.close();
  });

  it(`keeps at most ${MAX_KEPT}`, () => {
    const sqlite = new SQLite(':memory:');
    const kept = keepStatements(sqlite);
    for (let i = 0; i <= MAX_KEPT + 10; i++) kept.prepare(`select ${i}`);
    expect(kept.size).toBe(MAX_KEPT);
    kept.close();
  });

  it('is what the app runs on: the same query twice is prepared once', async () => {
    const database = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await database.migrate();
    const prepare = vi.spyOn(SQLite.prototype, 'prepare');
    try {
      const rows = () => database.db.selectFrom('orders').select('order_number').where('order_number', '=', 1).execute();
      await rows();
      await rows();
      expect(await rows()).toEqual([]);
      expect(prepare).toHaveBeenCalledTimes(1);
    } finally {
      prepare.mockRestore();
      await database.destroy();
    }
  });

  it('opens a SQLite file in WAL mode, with foreign keys on and a busy timeout', async () => {
    const path = join(tempDir(), 'pragmas.db');
    const database = await createDatabase({ kind: 'sqlite', path });
    try {
      const value = async (pragma: string) => Object.values((await sql.raw(`pragma ${pragma}`).execute(database.db)).rows[0] as object)[0];
      expect(await value('journal_mode')).toBe('wal');
      expect(await value('foreign_keys')).toBe(1);
      expect(await value('busy_timeout')).toBe(5000);
    } finally {
      await database.destroy();
    }
  });

  // Issue 14, defect 7 (docs/running.md#durability-of-the-embedded-database): FULL unless NORMAL is chosen. FULL's
  // sync at each commit is the group-commit driver's own (src/db/wal-sync.ts): the connection itself runs at NORMAL.
  it('syncs the log of the default SQLite file at every commit, and never when SQLITE_SYNCHRONOUS=normal asks', async () => {
    const syncs = async (env: Record<string, string>) => {
      let count = 0;
      const counted = (path: string) => {
        const real = walSyncOf(path);
        return { sync: (done: (error: Error | null) => void) => real.sync((error) => (count++, done(error))), close: () => real.close() };
      };
      const database = await createDatabase(loadConfig({ DATABASE_URL: `file:${join(tempDir(), 'sync.db')}`, ...env }).config.database, { logSync: counted });
      try {
        await sql`create table t (n integer)`.execute(database.db);
        const before = count;
        await sql`insert into t values (1)`.execute(database.db); // a write of its own
        await database.db.transaction().execute((trx) => sql`insert into t values (2)`.execute(trx));
        const pragma = Object.values((await sql.raw('pragma synchronous').execute(database.db)).rows[0] as object)[0];
        return { pragma, syncsOfTwoCommits: count - before };
      } finally {
        await database.destroy();
      }
    };
    expect(await syncs({})).toEqual({ pragma: 1, syncsOfTwoCommits: 2 });
    expect(await syncs({ SQLITE_SYNCHRONOUS: 'full' })).toEqual({ pragma: 1, syncsOfTwoCommits: 2 });
    expect(await syncs({ SQLITE_SYNCHRONOUS: 'normal' })).toEqual({ pragma: 1, syncsOfTwoCommits: 0 }); // NORMAL
  });
});
