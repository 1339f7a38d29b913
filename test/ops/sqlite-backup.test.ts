/**
 * scripts/sqlite-backup.ts (docs/operations.md#backups), run as an operator runs it, against a real gateway process
 * that keeps writing to its WAL-mode SQLite file throughout: the copy holds every order acknowledged before the
 * backup started, passes SQLite's integrity check and is one self-contained file. A plain copy of the database file
 * taken at the same moment is shown to miss acknowledged orders, which is why the guide says not to make one.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { postJson } from '../support/instances.ts';
import { entryOf, startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** `npm run backup:sqlite -- <destination>` without npm's own start-up (sources when changed since the build). */
function backup(destination: string, databaseUrl: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [...entryOf('scripts/sqlite-backup'), destination], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

function countOrders(file: string): number | null {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'orders'").get();
    return table ? (db.prepare('select count(*) from orders').pluck().get() as number) : null;
  } finally {
    db.close();
  }
}

describe('scripts/sqlite-backup.ts', () => {
  it('backs up a live WAL-mode database under writes into one consistent, complete file', { timeout: 60_000 }, async () => {
    const dir = tempDir('sleeve-backup-');
    const databaseUrl = `file:${join(dir, 'sleeve.db')}`;
    const gateway = await startProcess({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    const create = (i: number) => postJson(gateway.url, '/api/orders', { ...VALID_ORDER, email: `b${i}@example.com` });
    let acknowledged = 0;
    for (; acknowledged < 20; acknowledged++) expect((await create(acknowledged)).status).toBe(201);

    // What a file copy would have taken at this moment: the latest commits are still only in sleeve.db-wal.
    copyFileSync(join(dir, 'sleeve.db'), join(dir, 'file-copy.db'));
    expect(countOrders(join(dir, 'file-copy.db')) ?? 0).toBeLessThan(acknowledged);

    const before = acknowledged;
    let writing = true;
    const writer = (async () => {
      while (writing) if ((await create(acknowledged)).status === 201) acknowledged++;
    })();
    const destination = join(dir, 'backup.db');
    const result = await backup(destination, databaseUrl);
    const duringBackup = acknowledged;
    writing = false;
    await writer;

    expect(result, result.output).toMatchObject({ code: 0, output: expect.stringContaining('integrity ok') });
    expect(duringBackup, 'orders kept being written while the backup ran').toBeGreaterThan(before);
    const copy = new SQLite(destination, { readonly: true, fileMustExist: true });
    try {
      expect(copy.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
      expect(copy.prepare('PRAGMA journal_mode').pluck().get()).toBe('delete');
      const orders = copy.prepare('select count(*) from orders').pluck().get() as number;
      expect(orders).toBeGreaterThanOrEqual(before);
      expect(orders).toBeLessThanOrEqual(acknowledged);
    } finally {
      copy.close();
    }
    expect(existsSync(`${destination}-wal`)).toBe(false);
    expect(gateway.child.exitCode, 'the gateway kept running').toBeNull();
    // The database, its WAL and the backup are their owner's alone (they were 0644).
    for (const file of ['sleeve.db', 'sleeve.db-wal', 'backup.db']) expect((statSync(join(dir, file)).mode & 0o777).toString(8), file).toBe('600');
  });

  it('says what is wrong, and never overwrites a file', { timeout: 30_000 }, async () => {
    const dir = tempDir('sleeve-backup-');
    const taken = join(dir, 'taken.db');
    writeFileSync(taken, 'an earlier backup');
    const source = join(dir, 'sleeve.db');
    new SQLite(source).close();

    expect(await backup(taken, `file:${source}`)).toMatchObject({ code: 1, output: expect.stringContaining('already exists') });
    expect(await backup(join(dir, 'pg.db'), 'postgres://postgres@127.0.0.1:5432/db')).toMatchObject({ code: 1, output: expect.stringContaining('pg_dump') });
    expect(await backup(join(dir, 'missing.db'), `file:${join(dir, 'nothing-here.db')}`)).toMatchObject({ code: 1, output: expect.stringContaining('does not exist') });
    expect(readFileSync(taken, 'utf8')).toBe('an earlier backup');
    expect(existsSync(join(dir, 'pg.db')) || existsSync(join(dir, 'missing.db'))).toBe(false);
  });
});
