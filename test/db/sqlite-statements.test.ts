/**
 * Statements kept by SQL text (src/db/sqlite-statements.ts): prepared once, reused while idle, a fresh one while
 * the kept one is busy, and no more than MAX_KEPT of them; and the pragmas every connection is opened with
 * (synchronous = FULL by default, SQLITE_SYNCHRONOUS=normal to choose NORMAL).
 */
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { keepStatements, MAX_KEPT } from '../../src/db/sqlite-statements.ts';
import { createDatabase } from '../../src/db/database.ts';
import { loadConfig } from '../../src/kernel/config.ts';
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

  it('opens a SQLite file in WAL mode, with foreign keys on and no wait inside SQLite for a lock (lock-wait.ts waits)', async () => {
    const path = join(tempDir(), 'pragmas.db');
    const database = await createDatabase({ kind: 'sqlite', path });
    try {
      const value = async (pragma: string) => Object.values((await sql.raw(`pragma ${pragma}`).execute(database.db)).rows[0] as object)[0];
      expect(await value('journal_mode')).toBe('wal');
      expect(await value('foreign_keys')).toBe(1);
      // A lock is waited for on timers by the driver (test/db/sqlite-lock-wait.test.ts), not inside the call.
      expect(await value('busy_timeout')).toBe(0);
    } finally {
      await database.destroy();
    }
  });

  // Issue 14, defect 7 (docs/running.md#durability-of-the-embedded-database): FULL unless NORMAL is chosen.
  it('opens the default SQLite file with synchronous = FULL, and NORMAL only when SQLITE_SYNCHRONOUS asks', async () => {
    const synchronous = async (env: Record<string, string>) => {
      const database = await createDatabase(loadConfig({ DATABASE_URL: `file:${join(tempDir(), 'sync.db')}`, ...env }).config.database);
      try {
        return Object.values((await sql.raw('pragma synchronous').execute(database.db)).rows[0] as object)[0];
      } finally {
        await database.destroy();
      }
    };
    expect(await synchronous({})).toBe(2); // FULL
    expect(await synchronous({ SQLITE_SYNCHRONOUS: 'full' })).toBe(2);
    expect(await synchronous({ SQLITE_SYNCHRONOUS: 'normal' })).toBe(1); // NORMAL
  });
});
