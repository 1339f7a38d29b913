/**
 * Backs up the SQLite database named by DATABASE_URL while the gateway keeps running (docs/operations.md#backups):
 *
 *   npm run backup:sqlite -- <destination file, or an existing directory>   (its build, dist/scripts/sqlite-backup.js)
 *
 * A file copy of a live database is not a backup: in WAL mode the latest commits live in `sleeve.db-wal` until a
 * checkpoint, and a copy taken mid-write can be torn. SQLite's online backup API (better-sqlite3's `backup`) reads
 * a consistent snapshot instead. Writers are never blocked (WAL readers do not block them), and the whole
 * snapshot is taken in one step, because a step-by-step backup restarts whenever another process writes, and under
 * steady traffic might never finish. The copy is then switched to a single self-contained file (no -wal beside
 * it) and checked with `PRAGMA integrity_check`. Exits 1 with one line on any failure; never overwrites a file.
 */
import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import { ConfigError, loadConfig } from '../src/kernel/config.ts';

class BackupError extends Error {}

/** Where the backup goes: the path given, or a timestamped file inside a directory given. */
function destinationFor(given: string, now = new Date()): string {
  const isDirectory = existsSync(given) && statSync(given).isDirectory();
  const path = isDirectory ? join(given, `sleeve-${now.toISOString().replace(/[-:]|\.\d+/gu, '')}.db`) : given;
  if (!existsSync(dirname(path))) throw new BackupError(`${dirname(path)} does not exist: create the directory first.`);
  if (existsSync(path)) throw new BackupError(`${path} already exists; a backup never overwrites a file (choose a new name or a directory).`);
  return path;
}

/** The SQLite file DATABASE_URL names, read exactly as the gateway reads it. */
function sourceFile(env: NodeJS.ProcessEnv): string {
  const { database } = loadConfig(env).config;
  if (database.kind === 'postgres') throw new BackupError('DATABASE_URL names PostgreSQL: back it up with pg_dump (docs/operations.md#backups).');
  if (database.path === ':memory:') throw new BackupError('DATABASE_URL is an in-memory database: there is no file to back up.');
  if (!existsSync(database.path)) throw new BackupError(`${database.path} (DATABASE_URL) does not exist.`);
  return database.path;
}

async function backupSqlite(source: string, destination: string): Promise<{ pages: number; bytes: number }> {
  const db = new SQLite(source, { fileMustExist: true });
  // The copy holds what the database holds: its owner's only, as the database is (src/db/database.ts).
  closeSync(openSync(destination, 'a', 0o600));
  let pages = 0;
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    // The first step opens the backup; every later one copies all remaining pages at once (see the file comment).
    const done = await db.backup(destination, { progress: ({ totalPages }) => ((pages = totalPages), 0x7fffffff) });
    pages = done.totalPages;
  } finally {
    db.close();
  }
  const copy = new SQLite(destination, { fileMustExist: true });
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
    const check = copy.prepare('PRAGMA integrity_check').pluck().get();
    if (check !== 'ok') throw new BackupError(`the copy at ${destination} failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
  return { pages, bytes: statSync(destination).size };
}

async function main(): Promise<void> {
  const given = process.argv[2];
  if (!given) throw new BackupError('usage: npm run backup:sqlite -- <destination file or directory>');
  const source = sourceFile(process.env);
  const destination = destinationFor(given);
  const { pages, bytes } = await backupSqlite(source, destination).catch((error: unknown) => {
    // Never leave a half-written file that looks like a backup.
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(destination + suffix, { force: true });
    throw error;
  });
  console.log(`backed up ${source} to ${destination}: ${pages} pages, ${bytes} bytes, integrity ok`);
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof ConfigError;
  console.error(`sqlite-backup: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}`);
  process.exit(1);
});
