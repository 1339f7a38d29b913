/**
 * A damaged SQLite file is refused at start, with one line (docs/operations.md#backups). A disaster-recovery review
 * restored a backup over `sleeve.db` with the old `-wal` left beside it: the gateway started on the damaged file,
 * said ready, and answered every write 500. Here pages in the middle of a migrated file are overwritten.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { startupRefusal } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

async function damagedFile(): Promise<string> {
  const path = join(tempDir(), 'event.db');
  const database = await createDatabase({ kind: 'sqlite', path });
  await database.migrate();
  await database.destroy();
  const pages = statSync(path).size / 4096;
  const file = openSync(path, 'r+');
  // The last pages: b-tree pages of the latest tables and indexes, not the schema SQLite reads when it opens.
  for (let page = pages - 3; page < pages; page++) writeSync(file, Buffer.alloc(4096, 0x5a), 0, 4096, page * 4096);
  closeSync(file);
  return path;
}

describe('a damaged SQLite file', () => {
  it('is refused by migrate(), saying what SQLite found and where to go', async () => {
    const database = await createDatabase({ kind: 'sqlite', path: await damagedFile() });
    await expect(database.migrate()).rejects.toThrow(/^the SQLite file is damaged \(.+\): restore a backup \(docs\/operations\.md#backups\)$/u);
    await database.destroy();
  });

  it('stops start-up with that one line and a non-zero exit', async () => {
    const { status, lines } = startupRefusal({ DATABASE_URL: `file:${await damagedFile()}` });
    expect(status).not.toBe(0);
    expect(lines).toEqual([expect.stringContaining('sleeve-gateway: failed to start: the SQLite file is damaged')]);
  });
});
