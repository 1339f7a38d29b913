/**
 * A PostgreSQL database of each vitest worker's own (a setup file: it runs in the worker before each test file).
 *
 * Suites run in parallel workers, each gateway in a schema of its own (schema-pool.ts), dropped at the latest when its
 * file ends. kysely's migrator lists every table of the database (`introspection.getTables()`) before it migrates,
 * and PostgreSQL fails that query with `schema "t_…" does not exist` when another worker drops a schema while it
 * runs (the gateway now retries that, src/db/database.ts). One database per worker keeps each worker's creates and
 * drops out of the others' catalog, so no migration lists or waits on another worker's schemas: at most one suite at
 * a time uses a worker's database. The databases stay, like TEST_DATABASE_URL's own, and are reused by the next run.
 */
import pg from 'pg';
import { workerDatabase } from './databases.ts';

const base = process.env.TEST_DATABASE_URL;
const own = base ? workerDatabase(base) : null;
if (base && own) {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [own.name]);
    if (rowCount === 0) {
      // 42P04: another run created it meanwhile.
      await client.query(`create database ${own.name}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
