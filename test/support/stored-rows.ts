/**
 * What "nothing stored changes" compares (test/edge/generated-*.test.ts): every row of every table of a SQLite file,
 * hashed per table, read on a connection of its own as another process would see it. A table in `keysOnly` is
 * compared by its rows' first column alone (its primary key): background work updates those rows' states, never
 * which rows exist. A table in `ignore` is not compared: background work adds its rows.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { startServer } from '../../src/server.ts';
import { afterThisTest, testGateway, type TestGateway } from './gateway.ts';
import { tempDir } from './temp-dir.ts';

/**
 * For a door whose valid calls may register an endpoint and queue a notification: its delivery then runs in the
 * background, which adds attempts and updates the states of deliveries, notifications and endpoints.
 */
export const DELIVERY_BOOKKEEPING: StoredRowsOptions = { ignore: ['outbox_attempts', 'webhook_delivery_attempts'], keysOnly: ['outbox_notifications', 'webhook_deliveries', 'webhook_endpoints'] };

/** A gateway on a SQLite file of its own, on a real port, rate limits out of the way of many requests. */
export async function gatewayOnFile(): Promise<{ t: TestGateway; file: string; base: string }> {
  const file = join(tempDir('sleeve-stored-'), 'gateway.db');
  const t = await testGateway({ env: { DATABASE_URL: `file:${file}`, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' } });
  const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  return { t, file, base: `http://127.0.0.1:${server.port}` };
}

export interface StoredRowsOptions {
  keysOnly?: readonly string[];
  ignore?: readonly string[];
}

export function storedRows(file: string, { keysOnly = [], ignore = [] }: StoredRowsOptions = {}): Map<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).pluck().all() as string[];
    const compared = tables.filter((table) => !ignore.includes(table));
    return new Map(
      compared.map((table) => {
        const rows = db.prepare(`select * from "${table}"`).raw().all() as unknown[][];
        const kept = keysOnly.includes(table) ? rows.map((row) => row[0]) : rows;
        return [table, createHash('sha256').update(JSON.stringify(kept)).digest('hex')];
      }),
    );
  } finally {
    db.close();
  }
}

/** The tables whose rows differ between two readings. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([table, hash]) => before.get(table) !== hash).map(([table]) => table);
}
