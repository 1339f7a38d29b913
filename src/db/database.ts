/**
 * createDatabase(target): the one place that knows which database runs. SQLite (better-sqlite3) by default,
 * PostgreSQL by URL. What differs between them is a capability flag here, never a string check elsewhere.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Transaction } from 'kysely';
import type { DatabaseTarget } from '../config.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './tables.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export interface DatabaseCapabilities {
  /** Several connections can work at once (PostgreSQL); SQLite has one connection behind a mutex. */
  multipleConnections: boolean;
  /** `select … for update skip locked` claims rows without blocking other instances. */
  skipLocked: boolean;
}

export interface AppDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: 'sqlite' | 'postgres';
  readonly caps: DatabaseCapabilities;
  /** Applies every pending migration; throws one Error naming the migration that failed. */
  migrate(): Promise<void>;
  destroy(): Promise<void>;
}

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL'); // with WAL: durable at checkpoints, never corrupt
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000'); // another process (a second instance, a backup) may hold the lock briefly
  return sqlite;
}

export async function createDatabase(target: DatabaseTarget): Promise<AppDatabase> {
  if (target.kind === 'postgres') {
    throw new Error('DATABASE_URL: PostgreSQL support is not built yet; use file:PATH or :memory:.');
  }
  const sqlite = openSqlite(target.path);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    caps: { multipleConnections: false, skipLocked: false },
    migrate: () => migrate(db),
    destroy: () => db.destroy(),
  };
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A unique index refused the row: SQLite names the column (`UNIQUE constraint failed: orders.email_key`),
 * PostgreSQL the constraint (23505 with `constraint`). Pass both to match one index only.
 */
export function isUniqueViolation(error: unknown, which?: { index: string; column: string }): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, constraint } = error as { code?: string; message?: string; constraint?: string };
  const unique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || which === undefined) return unique;
  return constraint === which.index || (message ?? '').includes(which.column);
}
