/**
 * Preloaded (`node --import tsx --import ./bench/write-trace-hook.ts dist/src/main.js`) into the gateway that
 * bench/write-baseline.ts checks its baselines against, never into a measured one: counts every statement the
 * gateway runs, by its text (whitespace collapsed), at the drivers' own entry points (better-sqlite3's
 * Statement run/get/all/iterate and exec, pg's Client.query), below kysely, so nothing the gateway does is missed.
 * Over the IPC channel: 'reset' clears the counts, 'counts' sends them.
 */
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/package.json`);
const counts = new Map<string, number>();
const count = (sql: unknown) => {
  if (typeof sql !== 'string') return;
  const key = sql.replace(/\s+/gu, ' ').trim();
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

type Method = (this: { source: string }, ...args: unknown[]) => unknown;
const Database = require('better-sqlite3') as { new (path: string): { prepare(sql: string): object; close(): void }; prototype: { exec: Method } };
const probe = new Database(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, Method>;
for (const name of ['run', 'get', 'all', 'iterate']) {
  const original = statementProto[name]!;
  statementProto[name] = function (this: { source: string }, ...args: unknown[]) {
    count(this.source);
    return original.apply(this, args);
  };
}
const exec = Database.prototype.exec;
Database.prototype.exec = function (this: { source: string }, ...args: unknown[]) {
  count(args[0]);
  return exec.apply(this, args);
};

const pg = require('pg') as { Client: { prototype: { query: Method } } };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: { source: string }, ...args: unknown[]) {
  const config = args[0];
  count(typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text);
  return query.apply(this, args);
};

process.on('message', (message) => {
  if (message === 'reset') counts.clear();
  if (message === 'counts') process.send!(Object.fromEntries(counts));
});
