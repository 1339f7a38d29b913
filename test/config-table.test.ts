/**
 * Every environment variable the code reads is in the README's configuration table, the one list an operator reads.
 * docs/running.md kept a second list that went stale (an outside operator review found five variables there still
 * "decided for later work", eight missing, and DATA_DIR, which decides where the vault key is kept on PostgreSQL,
 * documented nowhere): it now points to the README's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

it("lists every variable the code reads in the README's configuration table", () => {
  const code = ['src', 'rest-compat', 'graphql-server', 'mcp', 'schema'].flatMap(sources).join('\n');
  const config = ['src/kernel/config.ts', 'src/kernel/config-values.ts'].map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
  const read = new Set([
    ...[...code.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/gu)].map((m) => m[1]!),
    ...[...config.matchAll(/env\.([A-Z][A-Z0-9_]+)|'([A-Z][A-Z0-9_]{2,})'/gu)].map((m) => (m[1] ?? m[2])!),
  ]);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const listed = new Set([...table.matchAll(/^\| ([^|]+) \|/gmu)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/gu)].map((n) => n[1]!)));
  expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  expect(read.size).toBeGreaterThan(40);
});
