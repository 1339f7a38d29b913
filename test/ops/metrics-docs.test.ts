/**
 * docs/operations.md's table of metrics against what a real process's /metrics prints: every family printed is in
 * the table with its type, every family in the table is printed, and the rate-limit groups the table names are the
 * ones the counter counts. The table had fallen behind (no `challenge` group, no `sleeve_webhook_endpoints_disabled_total`)
 * and nothing noticed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forgetRedisPrefix } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';
import { startProcess } from '../support/process.ts';
import { parsePrometheusText } from './prometheus-text.ts';

/** prom-client's default metrics, one row of the table for all of them. */
const PROCESS_FAMILY = /^sleeve_(process|nodejs)_/u;
/** Printed only with REDIS_URL set. */
const WITH_REDIS = new Set(['sleeve_redis_up']);

/** The table's rows: family → its type cell and its labels cell. */
function documentedFamilies(): Map<string, { type: string; labels: string }> {
  const text = readFileSync(resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');
  const start = text.indexOf('| family | type | labels |');
  expect(start).toBeGreaterThan(0);
  const rows = text.slice(start).split('\n').slice(2);
  const families = new Map<string, { type: string; labels: string }>();
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const [name, type, labels] = row.split(' | ').map((cell) => cell.replace(/^\| ?/u, '').trim());
    for (const [, family] of name!.matchAll(/`(sleeve_[a-z_]+)`/gu)) families.set(family!, { type: type!, labels: labels! });
  }
  return families;
}

describe('the metrics table of docs/operations.md', () => {
  it('lists every family a process prints, with its type, and nothing it does not print', async () => {
    const prefix = `metricsdocs_${randomBytes(4).toString('hex')}`;
    const redis: Record<string, string> = process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `${prefix}:` } : {};
    afterThisTest(() => forgetRedisPrefix(prefix));
    const server = await startProcess({ DATABASE_URL: ':memory:', LOG_LEVEL: 'warn', ...redis });
    const families = parsePrometheusText(await (await fetch(`${server.url}/metrics`)).text());
    const documented = documentedFamilies();

    for (const [name, family] of families) {
      if (PROCESS_FAMILY.test(name)) continue;
      expect(documented.has(name), `${name} is printed but not in the table`).toBe(true);
      expect(documented.get(name)!.type, name).toMatch(new RegExp(`^${family.type}\\b`, 'u'));
    }
    for (const name of documented.keys()) {
      if (WITH_REDIS.has(name) && !process.env.TEST_REDIS_URL) continue;
      expect(families.has(name), `${name} is in the table but not printed`).toBe(true);
    }

    // The groups the counter counts, as its own help names them, are the table's.
    const help = families.get('sleeve_rate_limit_refusals_total')!.help;
    const counted = /\(([^)]*)\)/u.exec(help ?? '')![1]!.split(', ');
    const listed = [...documented.get('sleeve_rate_limit_refusals_total')!.labels.matchAll(/`([a-z-]+)`/gu)].map((m) => m[1]).filter((g) => g !== 'group');
    expect(listed.sort()).toEqual(counted.sort());
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
