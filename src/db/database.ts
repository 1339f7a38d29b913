/**
 * createDatabase(target): the one place that knows which database runs. SQLite (better-sqlite3) by default,
 * PostgreSQL (pg, pooled) by URL. What differs between them is a capability flag here, never a string check elsewhere.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, PostgresDialect, sql, type Transaction } from 'kysely';
import { pgDriver } from '../kernel/drivers.ts';
import type { DatabaseTarget, SqliteSynchronous } from '../kernel/config.ts';
import { migrationProvider } from './migrations/index.ts';
import { groupCommitDialect } from './group-commit-dialect.ts';
import { tracedDialect } from './traced-dialect.ts';
import { DatabaseUnavailable, unavailableOnConnectionLoss } from './connection-loss.ts';
import { clientWithQueryTimeout, DEFAULT_QUERY_TIMEOUT_SECONDS, sessionTimeoutOption } from './query-timeout.ts';
import { clientWithNamedStatements } from './pg-named-statements.ts';
import { outsideRequestScope, type Logger } from '../kernel/logger.ts';
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
  /** Resolves when the database answers a query and every migration is applied (docs/operations.md#readiness). */
  check(): Promise<void>;
  destroy(): Promise<void>;
}

function openSqlite(path: string, synchronous: SqliteSynchronous): SQLite.Database {
  if (path !== ':memory:') {
    // Readable by its owner only: it holds hashes of every token, sealed card data and each site's orders and
    // accounts. SQLite gives its -wal and -shm files the database file's mode; a folder made here is the owner's.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  }
  const sqlite = new SQLite(path);
  try {
    configure(sqlite, path, synchronous);
  } catch (error) {
    // Damaged where SQLite reads first (its schema): said as refuseDamagedFile says what quick_check finds.
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') throw damagedFile((error as Error).message);
    throw error;
  }
  return sqlite;
}

function configure(sqlite: SQLite.Database, path: string, synchronous: SqliteSynchronous): void {
  // exec, not pragma(): pragma() prepares a statement and drops it (see sqlite-statements.ts for why none may be).
  // Opening waits inside SQLite for another process's lock (a backup, a rotation): nothing else runs yet.
  sqlite.exec('PRAGMA busy_timeout = 5000');
  if (path !== ':memory:') sqlite.exec('PRAGMA journal_mode = WAL');
  // FULL by default: with WAL, NORMAL skips the sync at each commit, so an OS crash or power loss could roll back a
  // committed payment or outbox row after the processor charged (docs/running.md#durability-of-the-embedded-database).
  sqlite.exec(`PRAGMA synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  sqlite.exec('PRAGMA foreign_keys = ON');
  // From here on a statement refused by a lock waits on timers instead, so the process goes on serving (lock-wait.ts).
  sqlite.exec('PRAGMA busy_timeout = 0');
}

/**
 * PostgreSQL through a pool. `?schema=NAME` in the URL puts every table in that schema (created when missing),
 * so several test files or deployments can share one database without colliding. `?connect_timeout=SECONDS`
 * (libpq's name; default 10, 0 waits for ever) bounds the wait for a connection, a new one or a free one of the pool:
 * past it the request is answered 503 rather than held while PostgreSQL does not answer at all.
 * `?query_timeout=SECONDS` (default 10, 0 waits for ever) bounds the wait for each answer on an open connection, and
 * how long the server keeps a transaction left idle (query-timeout.ts).
 */
async function openPostgres(url: string, logger?: Logger): Promise<{ db: Kysely<Database>; schema: string | null; forMigrations: () => Kysely<Database> }> {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/u.test(schema)) {
    throw new Error(`DATABASE_URL: schema "${schema}" must be lower-case letters, digits and _`);
  }
  const connectTimeoutMs = secondsParameter(parsed, 'connect_timeout', DEFAULT_CONNECT_TIMEOUT_SECONDS) * 1000;
  // Ours, not pg's: pg would read `query_timeout` from the URL itself, in milliseconds, and apply it its own way.
  const queryTimeoutMs = secondsParameter(parsed, 'query_timeout', DEFAULT_QUERY_TIMEOUT_SECONDS) * 1000;
  parsed.searchParams.delete('query_timeout');
  const options = [...(schema ? [`-c search_path=${schema}`] : []), ...sessionTimeoutOption(queryTimeoutMs)];
  const pg = pgDriver();
  const newPool = (max: number, answerTimeoutMs: number) => {
    const pool = new pg.Pool({
      connectionString: parsed.toString(),
      max,
      connectionTimeoutMillis: connectTimeoutMs,
      Client: clientWithNamedStatements(clientWithQueryTimeout(answerTimeoutMs)),
      ...(options.length > 0 ? { options: options.join(' ') } : {}),
      // bigint columns hold epoch milliseconds and order numbers: all well inside 2^53, so read them as numbers.
      types: { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as never)) } as never,
    });
    // A connection PostgreSQL ends (a restart, a failover, pg_terminate_backend) emits 'error' on its pg client, and
    // on the pool too while it is idle; an 'error' event nobody hears ends the process, so both are heard here. pg
    // drops that client; the next request gets a new connection (docs/operations.md#when-postgresql-goes-away).
    pool.on('error', () => {});
    pool.on('connect', (client) =>
      client.on('error', (error: Error & { code?: string }) => {
        // The code only: the driver's message may name hosts. Outside any request's scope: the socket's async context is
        // that of the request that opened the connection, and the loss is no request's.
        outsideRequestScope(() => logger?.warn('a database connection was lost', { code: error.code ?? 'closed' }));
      }),
    );
    return pool;
  };
  const pool = newPool(10, queryTimeoutMs);
  if (schema) await pool.query(`create schema if not exists ${schema}`);
  const dialect = tracedDialect(unavailableOnConnectionLoss(new PostgresDialect({ pool })), 'postgresql');
  // Migrations on a connection of their own, with no bound on an answer: one may rightly take longer than any request
  // should (an index built on a big table, or the wait for the lock of another instance migrating meanwhile).
  const forMigrations = () => new Kysely<Database>({ dialect: unavailableOnConnectionLoss(new PostgresDialect({ pool: newPool(1, 0) })) });
  return { db: new Kysely<Database>({ dialect }), schema, forMigrations };
}

const INT8_OID = 20;
const DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;

/** A DATABASE_URL parameter in whole seconds, or `fallback` when it is absent; anything else stops start-up. */
function secondsParameter(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name) ?? String(fallback);
  if (!/^\d{1,6}$/u.test(value)) throw new Error(`DATABASE_URL: ${name} "${value}" must be whole seconds`);
  return Number(value);
}

/** `logger` hears of PostgreSQL connections lost (nothing is logged without one). */
export async function createDatabase(target: DatabaseTarget, { logger }: { logger?: Logger } = {}): Promise<AppDatabase> {
  if (target.kind === 'postgres') {
    const { db, schema, forMigrations } = await openPostgres(target.url, logger);
    return {
      db,
      dialect: 'postgres',
      caps: { multipleConnections: true, skipLocked: true },
      // The migrator looks for its own tables in any schema unless told which one.
      migrate: () => migrate(db, schema ?? undefined, forMigrations),
      check: () => check(db, schema ?? undefined),
      destroy: () => db.destroy(),
    };
  }
  const sqlite = openSqlite(target.path, target.synchronous ?? 'full');
  const db = new Kysely<Database>({ dialect: tracedDialect(groupCommitDialect(sqlite), 'sqlite') });
  return {
    db,
    dialect: 'sqlite',
    caps: { multipleConnections: false, skipLocked: false },
    migrate: async () => {
      await refuseDamagedFile(db);
      await migrate(db);
    },
    check: () => check(db),
    destroy: () => db.destroy(),
  };
}

/**
 * A damaged SQLite file stops start-up with one line. A restore that left the old `-wal` beside the backup made one
 * (a disaster-recovery review): the gateway started, said ready, and answered every write 500. `quick_check` reads
 * every page once (milliseconds for an event's file) and stops at the first problems.
 */
async function refuseDamagedFile(db: Kysely<Database>): Promise<void> {
  let problems: string[];
  try {
    problems = (await sql<{ quick_check: string }>`pragma quick_check(3)`.execute(db)).rows.map((row) => row.quick_check);
  } catch (error) {
    problems = [error instanceof Error ? error.message : String(error)];
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  // Its first row is "*** in database main ***" and a line a problem: one line for start-up's.
  throw damagedFile(problems.join('\n').split('\n').filter((line) => line && !line.startsWith('***')).join('; '));
}

const damagedFile = (found: string) => new Error(`the SQLite file is damaged (${found}): restore a backup (docs/operations.md#backups)`);

/**
 * Retries of kysely's migrator when another schema's table or schema was dropped while it listed the catalog: its
 * listing calls `pg_get_serial_sequence` on every column's table by name, which then fails with 42P01 or 3F000. A
 * migration of ours failing with 42P01 for a reason of its own fails the same way each time, and then is thrown.
 */
const CATALOG_RACE_RETRIES = 10;
const CATALOG_RACE_CODES = new Set(['3F000', '42P01']);

/**
 * Applies what is pending. An instance starting on a database already migrated (every start but the first) only
 * reads the migration table: kysely's migrator would first list every table of every schema of the database, which
 * on a shared PostgreSQL costs a catalog scan and fails when another schema is dropped meanwhile. When
 * there is something to apply, the migrator runs (under its own lock, so instances starting together take turns),
 * again after such a failure: its migrations are transactions, so a retry starts from what was committed. On
 * PostgreSQL it runs on `forMigrations`, a connection whose answers `query_timeout` does not bound.
 */
async function migrate(db: Kysely<Database>, schema?: string, forMigrations?: () => Kysely<Database>): Promise<void> {
  const { pending, newer } = await migrationState(db, schema);
  // A downgrade: this build's rules would run on tables it does not know (an upgrade review saw two older builds
  // serve on a newer database, /ready 200). Going back is restoring a backup made before the upgrade.
  if (newer.length > 0) {
    throw new Error(`the database was migrated by a newer version of the gateway (${newer.join(', ')}): start that version, or restore a backup made before it (docs/running.md#upgrading)`);
  }
  if (pending.length === 0) return;
  const inSchema = schema ? { migrationTableSchema: schema } : {};
  const migrating = forMigrations?.() ?? db;
  try {
    const migrator = new Migrator({ db: migrating, provider: migrationProvider, ...inSchema });
    for (let attempt = 1; ; attempt++) {
      const { error, results } = await migrator.migrateToLatest();
      if (!error) return;
      if (attempt <= CATALOG_RACE_RETRIES && CATALOG_RACE_CODES.has((error as { code?: string }).code ?? '')) continue;
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    if (migrating !== db) await migrating.destroy();
  }
}

/**
 * A real round trip that reads the migrator's table, and only that, then no migration pending
 * (docs/operations.md#readiness).
 */
async function check(db: Kysely<Database>, schema?: string): Promise<void> {
  let pending;
  try {
    ({ pending } = await migrationState(db, schema));
  } catch (error) {
    // The driver's code (ECONNREFUSED, 57P01, SQLITE_…) says enough; its message may name hosts or paths.
    const code = error instanceof DatabaseUnavailable ? error.driverCode : (error as { code?: string }).code;
    throw new Error(`database unavailable (${code ?? 'no answer'})`);
  }
  if (pending.length > 0) throw new Error(`${pending.length} migration${pending.length === 1 ? '' : 's'} not applied`);
}

/**
 * This build's migrations the migration table does not list (none yet: all of them), and those it lists that this
 * build does not know (a newer version's), read from that table alone. Not kysely's `getMigrations()`: it first
 * lists every table and column of the whole database, schemas of other deployments included. On a shared
 * PostgreSQL that made each readiness probe cost a catalog scan (over 2 s, the probe's limit, beside a few hundred
 * schemas), and fail with 3F000 while another schema of the database was dropped.
 */
async function migrationState(db: Kysely<Database>, schema?: string): Promise<{ pending: string[]; newer: string[] }> {
  const table = schema ? sql.table(`${schema}.${DEFAULT_MIGRATION_TABLE}`) : sql.table(DEFAULT_MIGRATION_TABLE);
  const applied = await sql<{ name: string }>`select name from ${table}`.execute(db).then(
    ({ rows }) => new Set(rows.map((row) => row.name)),
    (error: unknown) => {
      if (isMissingTable(error)) return new Set<string>();
      throw error;
    },
  );
  const known = Object.keys(await migrationProvider.getMigrations());
  return { pending: known.filter((name) => !applied.has(name)), newer: [...applied].filter((name) => !known.includes(name)).sort() };
}

function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '42P01' || (code === 'SQLITE_ERROR' && (message ?? '').startsWith('no such table'));
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
