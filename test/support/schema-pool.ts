/**
 * PostgreSQL schemas for the test gateways of one file, emptied after each test and handed to the next instead of a
 * new schema for every gateway.
 *
 * A new schema cost each PostgreSQL test about 650 ms of a busy database: 450 ms to migrate (about a hundred DDL
 * statements) and 200 ms to drop, against 3 ms to empty its tables with DELETE (no catalog change) and 5 ms for the
 * next gateway's migrate to find nothing to do. On a 2-core machine the database's CPU is the shared limit, so that
 * work was not waited beside the tests: it was the test run.
 *
 * What the next test gets is what a fresh schema holds: every table empty but for the rows the migrations seed
 * (read once, after the schema is migrated, and written back), and a Redis prefix of its own. A schema whose shape a
 * test changed (a trigger, a function, a table, a migration row) is dropped instead of reused. Whatever is left at
 * the end of the file is dropped with it.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../../src/db/database.ts';
import { backendEnv, BACKEND, dropSchema, forgetRedisPrefix, schemaEnv, testDatabaseUrl, type BackendEnv } from './databases.ts';
import { afterThisFile } from './leftovers.ts';

interface PooledSchema {
  name: string;
  /** Its tables, each after every table that references it: DELETE in this order breaks no foreign key. */
  tables: string[];
  /** The migrations' own rows (table → rows as JSON), written back after the DELETE. */
  seeds: Map<string, unknown[]>;
  /** What the schema holds as migrated (relations, columns, functions, triggers, constraints, migrations). */
  shape: string;
}

const free: PooledSchema[] = [];
let client: pg.Client | null = null;
let uses = 0;

/** backendEnv's environment, in a schema of this file's pool. */
export async function pooledBackendEnv(): Promise<BackendEnv> {
  if (BACKEND !== 'postgres') return backendEnv();
  afterThisFile(dropPool);
  const schema = free.pop() ?? (await migratedSchema());
  uses += 1;
  const prefix = `${schema.name}_${uses}`;
  return { env: schemaEnv(schema.name, prefix), cleanup: async () => void (await Promise.all([giveBack(schema), forgetRedisPrefix(prefix)])) };
}

async function connection(): Promise<pg.Client> {
  if (client === null) {
    const opened = new pg.Client({ connectionString: testDatabaseUrl()! });
    await opened.connect();
    client = opened;
  }
  return client;
}

async function migratedSchema(): Promise<PooledSchema> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(testDatabaseUrl()!);
  url.searchParams.set('schema', name);
  const database = await createDatabase({ kind: 'postgres', url: url.toString() });
  try {
    await database.migrate();
  } finally {
    await database.destroy();
  }
  const db = await connection();
  const tables = await deleteOrder(db, name);
  const seeds = new Map<string, unknown[]>();
  for (const table of tables) {
    const { rows } = await db.query(`select coalesce(json_agg(t), '[]') as rows from ${name}.${table} t`);
    if (rows[0].rows.length > 0) seeds.set(table, rows[0].rows);
  }
  return { name, tables, seeds, shape: await shapeOf(db, name) };
}

/** The tables but the migrator's, children before parents. */
async function deleteOrder(db: pg.Client, schema: string): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1 and tablename not like 'kysely_migration%'`, [schema]);
  const { rows: references } = await db.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
     join pg_namespace n on n.oid = k.connamespace where k.contype = 'f' and n.nspname = $1 and c.relname <> p.relname`,
    [schema],
  );
  const order: string[] = [];
  const left = new Set(tables.map((table) => table.name));
  while (left.size > 0) {
    // A table goes once nothing left references it.
    const ready = [...left].filter((table) => !references.some((ref) => ref.parent === table && left.has(ref.child)));
    if (ready.length === 0) throw new Error(`schema ${schema}: a cycle of foreign keys among ${[...left].join(', ')}`);
    for (const table of ready) {
      order.push(table);
      left.delete(table);
    }
  }
  return order;
}

async function shapeOf(db: pg.Client, schema: string): Promise<string> {
  const { rows } = await db.query(
    `select (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1) as relations,
            (select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not a.attisdropped) as columns,
            (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1) as functions,
            (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1) as triggers,
            (select count(*) from pg_constraint k join pg_namespace n on n.oid = k.connamespace where n.nspname = $1) as constraints,
            (select count(*) from ${schema}.kysely_migration) as migrations`,
    [schema],
  );
  return JSON.stringify(rows[0]);
}

/** Emptied for the next test, or dropped when a test changed its shape or the emptying failed. */
async function giveBack(schema: PooledSchema): Promise<void> {
  const db = await connection();
  try {
    if ((await shapeOf(db, schema.name)) !== schema.shape) throw new Error('changed');
    const statements = schema.tables.map((table) => `delete from ${schema.name}.${table}`);
    await db.query(`begin; ${statements.join('; ')}; commit`);
    for (const [table, rows] of schema.seeds) {
      await db.query(`insert into ${schema.name}.${table} select * from json_populate_recordset(null::${schema.name}.${table}, $1)`, [JSON.stringify(rows)]);
    }
    free.push(schema);
  } catch {
    await db.query('rollback').catch(() => undefined);
    await dropSchema(testDatabaseUrl()!, schema.name);
  }
}

async function dropPool(): Promise<void> {
  const schemas = free.splice(0);
  for (const schema of schemas) await dropSchema(testDatabaseUrl()!, schema.name);
  await client?.end();
  client = null;
}
