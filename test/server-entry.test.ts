/**
 * The suites' child processes run the build when it is fresh and the sources otherwise (test/support/process.ts
 * builtOrSources): a test that starts a server after an edit must never run yesterday's build.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { builtOrSources } from './support/process.ts';
import { tempDir } from './support/temp-dir.ts';

const SOURCES = ['--import', 'tsx', 'src/main.ts'];

/** A checkout with sources and, unless `built` is null, a build made at `built` (seconds since the epoch). */
function checkout(files: Record<string, number>, built: number | null): string {
  const root = tempDir('sleeve-entry-');
  for (const [path, at] of Object.entries({ ...files, ...(built === null ? {} : { 'dist/src/main.js': built }) })) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), at, at);
  }
  // The folders' own times (a file added or removed) are as old as their oldest file here.
  for (const folder of ['src', 'src/orders', 'mcp']) utimesSync(join(root, folder), 1_000, 1_000);
  return root;
}

it('runs the build when it is newer than every file it is made from', () => {
  const root = checkout({ 'src/main.ts': 1_000, 'src/orders/order-service.ts': 1_500, 'mcp/tools.ts': 1_200, 'package.json': 1_100 }, 2_000);
  expect(builtOrSources(root, 'src/main')).toEqual(['dist/src/main.js']);
});

it('runs the sources when any of them, or the build settings, changed after the build', () => {
  for (const changed of ['src/orders/order-service.ts', 'mcp/tools.ts', 'package.json']) {
    const root = checkout({ 'src/main.ts': 1_000, 'src/orders/order-service.ts': 1_500, 'mcp/tools.ts': 1_200, 'package.json': 1_100, [changed]: 2_500 }, 2_000);
    expect(builtOrSources(root, 'src/main'), changed).toEqual(SOURCES);
  }
});

it('runs the sources when there is no build', () => {
  expect(builtOrSources(checkout({ 'src/main.ts': 1_000, 'src/orders/order-service.ts': 1_000, 'mcp/tools.ts': 1_000 }, null), 'src/main')).toEqual(SOURCES);
});

it('runs an operator command (scripts/) the same way: its build while fresh, its sources once it changed', () => {
  const files = { 'src/main.ts': 1_000, 'src/orders/order-service.ts': 1_000, 'mcp/tools.ts': 1_000, 'scripts/vault-rotate.ts': 1_500 };
  const fresh = checkout({ ...files, 'dist/scripts/vault-rotate.js': 2_000 }, 2_000);
  utimesSync(join(fresh, 'scripts'), 1_000, 1_000);
  expect(builtOrSources(fresh, 'scripts/vault-rotate')).toEqual(['dist/scripts/vault-rotate.js']);
  const edited = checkout({ ...files, 'scripts/vault-rotate.ts': 2_500, 'dist/scripts/vault-rotate.js': 2_000 }, 2_000);
  utimesSync(join(edited, 'scripts'), 1_000, 1_000);
  expect(builtOrSources(edited, 'scripts/vault-rotate')).toEqual(['--import', 'tsx', 'scripts/vault-rotate.ts']);
});
