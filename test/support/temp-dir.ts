/** A fresh temporary directory per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterThisTest } from './gateway.ts';

export function tempDir(prefix = 'sleeve-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterThisTest(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
