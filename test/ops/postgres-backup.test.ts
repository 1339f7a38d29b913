/**
 * docs/operations.md#backups, PostgreSQL: the documented pg_dump and pg_restore commands, run as written (the URL,
 * schema and file put in), on a gateway's database with and without `?schema=` in DATABASE_URL. Without one the
 * tables are in `public` (the default search_path), where the documented `--schema=sleeve` found nothing: pg_dump
 * stopped with "no matching schemas were found". Each backup is restored into an empty database and holds the order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';

const PG_DUMP = '/usr/bin/pg_dump';

/** The `pg_dump` and `pg_restore` lines of the PostgreSQL backup instructions. */
function documentedCommands(): string[] {
  const text = readFileSync(resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');
  const section = text.slice(text.indexOf('**PostgreSQL.** `pg_dump`'), text.indexOf('### Rotating secrets'));
  return section.split('\n').filter((line) => /^pg_(dump|restore) /u.test(line));
}

/** One documented line as arguments: the URL, schema and file of this test put in, the trailing comment dropped. */
function argumentsOf(line: string, { url, schema, file }: { url: string; schema: string; file: string }): string[] {
  return line
    .replace(/\s+#.*$/u, '')
    .replace(/--file=\S*\$\([^)]*\)\S*/u, `--file=${file}`)
    .split(/\s+/u)
    .slice(1)
    .map((arg) => arg.replace('postgres://…/event', url).replace(/^--schema=sleeve$/u, `--schema=${schema}`).replace(/^--file=.*$/u, `--file=${file}`).replace(/^sleeve-….dump$/u, file));
}

describe.skipIf(!testDatabaseUrl() || !existsSync(PG_DUMP))('PostgreSQL backups as documented', () => {
  const admin = async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl()! });
    await client.connect();
    afterThisTest(() => client.end());
    return client;
  };
  /** A new empty database beside the test's, dropped after the test; its URL. */
  const newDatabase = async (client: pg.Client, label: string) => {
    const name = `${label}_${randomBytes(4).toString('hex')}`;
    await client.query(`create database ${name}`);
    afterThisTest(() => client.query(`drop database if exists ${name} with (force)`).then(() => undefined));
    const url = new URL(testDatabaseUrl()!);
    url.pathname = `/${name}`;
    url.search = '';
    return url.toString();
  };

  for (const schema of [null, 'sleeve_events'] as const) {
    it(`backs up and restores the orders, DATABASE_URL ${schema ? 'with ?schema=' : 'without a schema'}`, async () => {
      const client = await admin();
      const source = await newDatabase(client, 'backup_src');
      const t = await testGateway({ env: { DATABASE_URL: schema ? `${source}?schema=${schema}` : source } });
      const { orderNumber } = await t.createOrder();

      const commands = documentedCommands();
      const dump = commands.find((line) => line.startsWith('pg_dump ') && line.includes('--schema=') === (schema !== null));
      expect(dump, `a documented pg_dump line ${schema ? 'with' : 'without'} --schema`).toBeDefined();
      const restore = commands.find((line) => line.startsWith('pg_restore '));
      expect(restore).toBeDefined();
      const file = join(tempDir('sleeve-backup-'), 'sleeve.dump');
      execFileSync(PG_DUMP, argumentsOf(dump!, { url: source, schema: schema ?? '', file }), { stdio: 'pipe' });

      const target = await newDatabase(client, 'backup_dst');
      execFileSync('/usr/bin/pg_restore', argumentsOf(restore!, { url: target, schema: schema ?? '', file }), { stdio: 'pipe' });
      const restored = new pg.Client({ connectionString: target });
      await restored.connect();
      try {
        const { rows } = await restored.query(`select order_number from ${schema ?? 'public'}.orders`);
        expect(rows.map((row) => String(row.order_number))).toEqual([orderNumber]);
      } finally {
        await restored.end();
      }
    });
  }
});
