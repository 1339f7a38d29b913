/**
 * A database a newer version migrated is refused at start (docs/running.md#upgrading): an upgrade review started
 * two older builds on the current database, on SQLite and PostgreSQL, and both served with `/ready` 200, their
 * rules running on tables they did not know. The check counted only the migrations a build knows.
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { startupRefusal } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const FUTURE = '0099-from-a-newer-version';

async function migratedByANewerVersion(path: string): Promise<void> {
  const database = await createDatabase({ kind: 'sqlite', path });
  await database.migrate();
  await sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(database.db);
  await database.destroy();
}

describe('a database a newer version migrated', () => {
  it('is refused by migrate(), naming the migrations this build does not know, and nothing in it changes', async () => {
    const path = join(tempDir(), 'event.db');
    await migratedByANewerVersion(path);
    const database = await createDatabase({ kind: 'sqlite', path });
    await expect(database.migrate()).rejects.toThrow(
      `the database was migrated by a newer version of the gateway (${FUTURE}): start that version, or restore a backup made before it (docs/running.md#upgrading)`,
    );
    const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    expect(names.rows.at(-1)).toEqual({ name: FUTURE });
    await database.destroy();
  });

  it('stops start-up with that one line and a non-zero exit', async () => {
    const path = join(tempDir(), 'event.db');
    await migratedByANewerVersion(path);
    const { status, lines } = startupRefusal({ DATABASE_URL: `file:${path}` });
    expect(status).not.toBe(0);
    expect(lines.join('\n')).toContain(`the database was migrated by a newer version of the gateway (${FUTURE})`);
  });
});
