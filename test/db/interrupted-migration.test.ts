/**
 * A migration cut off partway on SQLite (an outside review: kill -9 during the first start or an upgrade, or a disk
 * that fills during it) left its first statements committed and the migration unrecorded, so every later start ran
 * it again and failed on its first statement: "migration 0001-orders failed: table "counters" already exists", for
 * good. The migrations now commit with their records or not at all (src/db/group-commit-dialect.ts). Here the
 * interruption is a statement that fails partway (a table already there), taken away before the next start, as
 * freed space would be.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { tempDir } from '../support/temp-dir.ts';

const tables = (path: string): string[] => {
  const sqlite = new SQLite(path, { readonly: true });
  try {
    return (sqlite.prepare(`select name from sqlite_master where type = 'table' order by name`).all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    sqlite.close();
  }
};

describe('a SQLite migration cut off partway', () => {
  it('leaves nothing of itself behind, and the next start migrates the database', async () => {
    const path = join(tempDir(), 'event.db');
    // 0001-orders creates counters, sleeve_option_sets, then settings: the third fails.
    const sqlite = new SQLite(path);
    sqlite.exec('create table settings (x integer)');
    sqlite.close();

    const first = await createDatabase({ kind: 'sqlite', path });
    await expect(first.migrate()).rejects.toThrow('migration 0001-orders failed: table "settings" already exists');
    await first.destroy();
    expect(tables(path).filter((name) => !name.startsWith('kysely_'))).toEqual(['settings']);

    const cleared = new SQLite(path);
    cleared.exec('drop table settings');
    cleared.close();
    const next = await createDatabase({ kind: 'sqlite', path });
    await next.migrate();
    await expect(next.check()).resolves.toBeUndefined();
    await next.destroy();
    expect(tables(path)).toEqual(expect.arrayContaining(['counters', 'orders', 'settings', 'webhook_endpoints']));
  });
});
