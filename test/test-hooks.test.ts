/**
 * The suites run with `isolate: false` (vitest.config.ts): a worker imports a support module once and runs file after
 * file with it. A hook that such a module registers at its top level belongs to the first file it ran in, so every
 * later file's gateways, child processes and PostgreSQL schemas would be left behind (a full run once left 80 gateway
 * processes and about 770 schemas). Support modules hand what they make to test/support/leftovers.ts instead, and
 * only a setup file, which vitest runs for each file, registers hooks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';

const ROOT = resolve(import.meta.dirname, '..');
const TOP_LEVEL_HOOK = /^(?:afterEach|afterAll|beforeEach|beforeAll)\(/mu;

function supportModules(): string[] {
  const setupFiles = [config.test?.setupFiles ?? []].flat();
  return readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file}`)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !setupFiles.includes(file));
}

describe('hooks under isolate: false', () => {
  it('are registered by setup files only, never at the top of a support module', () => {
    const offenders = supportModules().filter((file) => TOP_LEVEL_HOOK.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('include the one that undoes each test and checks each file', () => {
    expect(config.test?.isolate).toBe(false);
    expect(config.test?.setupFiles).toContain('test/support/per-file-hooks.ts');
  });
});
