/**
 * Which backends the suite runs against. SQLite always; the `postgres` vitest project (present when
 * TEST_DATABASE_URL is set) runs the database-facing suites again on PostgreSQL, each gateway in a schema of its
 * own (handed to the file's next test, emptied, or dropped: schema-pool.ts), with the event bus on Redis when
 * TEST_REDIS_URL is set (a channel prefix of its own).
 * Under vitest each worker has a database of its own beside TEST_DATABASE_URL's (test/support/worker-database.ts says
 * why, and creates it).
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDatabase, type AppDatabase } from '../../src/db/database.ts';
import { afterThisFile, afterThisTest } from './leftovers.ts';

export const BACKEND = process.env.SLEEVE_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface BackendEnv {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * The database of this vitest worker (VITEST_POOL_ID: 1 to maxWorkers, one suite at a time each): TEST_DATABASE_URL's
 * name with `_w<id>`; null outside vitest's workers.
 */
export function workerDatabase(base: string): { name: string; url: string } | null {
  const worker = process.env.VITEST_POOL_ID;
  if (!worker || !/^\d+$/u.test(worker)) return null;
  const url = new URL(base);
  const name = `${url.pathname.replace(/^\//u, '') || 'postgres'}_w${worker}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/u.test(name)) throw new Error(`TEST_DATABASE_URL: the worker database "${name}" must be lower-case letters, digits and _`);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** TEST_DATABASE_URL, or this worker's database beside it. */
export function testDatabaseUrl(): string | undefined {
  const base = process.env.TEST_DATABASE_URL;
  return base && (workerDatabase(base)?.url ?? base);
}

/** Environment for one test gateway on the backend of this run: a fresh schema, which the gateway migrates. */
export function backendEnv(): BackendEnv {
  if (BACKEND !== 'postgres') return { env: {}, cleanup: async () => {} };
  const id = `t_${randomBytes(6).toString('hex')}`;
  return { env: schemaEnv(id, id), cleanup: () => forgetSchema(id, id) };
}

/** DATABASE_URL naming `schema` of this worker's database, and REDIS_URL with `redisPrefix` when TEST_REDIS_URL is set. */
export function schemaEnv(schema: string, redisPrefix: string): Record<string, string> {
  const base = testDatabaseUrl();
  if (!base) throw new Error('the postgres project needs TEST_DATABASE_URL');
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  const env: Record<string, string> = { DATABASE_URL: url.toString() };
  if (process.env.TEST_REDIS_URL) Object.assign(env, { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `${redisPrefix}:` });
  return env;
}

let redis: Redis | null = null;

/**
 * Deletes the keys a test's gateways left under `prefix` (TEST_REDIS_URL): MCP sessions live a day, and a shared
 * Redis should not hold a run's leftovers that long.
 */
export async function forgetRedisPrefix(prefix: string): Promise<void> {
  const url = process.env.TEST_REDIS_URL;
  if (!url) return;
  if (redis === null) {
    redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    afterThisFile(async () => {
      await redis?.quit();
      redis = null;
    });
  }
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 1000 })) keys.push(...(batch as string[]));
  if (keys.length > 0) await redis.unlink(...keys);
}

/** Drops `schema` of this worker's database and the keys under `redisPrefix`: what a test's gateways left. */
export async function forgetSchema(schema: string, redisPrefix: string): Promise<void> {
  await Promise.all([dropSchema(testDatabaseUrl()!, schema), forgetRedisPrefix(redisPrefix)]);
}

/** Drops `schema` of the database at `base`, with everything in it. */
export async function dropSchema(base: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/**
 * Environment for several server processes serving one event: one fresh PostgreSQL schema (TEST_DATABASE_URL) and
 * one Redis prefix (TEST_REDIS_URL) shared by all of them. Only for suites that run when both are set.
 */
export function sharedInstancesEnv(label: string): BackendEnv {
  if (!testDatabaseUrl() || !process.env.TEST_REDIS_URL) throw new Error('several instances need TEST_DATABASE_URL and TEST_REDIS_URL');
  const schema = `${label}_${randomBytes(5).toString('hex')}`;
  return { env: schemaEnv(schema, schema), cleanup: () => forgetSchema(schema, schema) };
}

/**
 * Another deployment (or test run) sharing the database: schemas with tables made and dropped one after another, on a
 * connection of their own, until `stop()`; `made` counts the schemas dropped so far.
 */
export async function churnOtherSchemas(databaseUrl: string): Promise<{ stop(): Promise<void>; made(): number }> {
  const url = new URL(databaseUrl);
  url.searchParams.delete('schema');
  const other = new pg.Client({ connectionString: url.toString() });
  await other.connect();
  let churning = true;
  let made = 0;
  const churn = (async () => {
    while (churning) {
      const name = `other_${process.pid}_${made}`;
      await other.query(`create schema ${name}; create table ${name}.a (id serial primary key, note text); create table ${name}.b (id bigint, at timestamptz)`);
      await other.query(`drop schema ${name} cascade`);
      made++;
    }
  })();
  return {
    made: () => made,
    async stop() {
      churning = false;
      await churn.finally(() => other.end());
    },
  };
}

/** A PostgreSQL database at `url` with these DATABASE_URL parameters set (`query_timeout`, `schema`…), closed after the test. */
export async function openPostgresWith(url: string, settings: Record<string, string> = {}): Promise<AppDatabase> {
  const withSettings = new URL(url);
  for (const [name, value] of Object.entries(settings)) withSettings.searchParams.set(name, value);
  const database = await createDatabase({ kind: 'postgres', url: withSettings.toString() });
  afterThisTest(() => database.destroy());
  return database;
}
