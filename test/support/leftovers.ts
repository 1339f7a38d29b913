/**
 * What a test or a test file leaves to be undone: gateways, servers, processes, browsers, schemas, and the checks a
 * suite makes once its file has run.
 *
 * The hooks that run these are registered by test/support/per-file-hooks.ts, a setup file, and not here: vitest runs
 * a worker's files one after another in one module graph (`isolate: false`), so a hook registered when this module
 * is first imported would belong to the first file only, and every later file's gateways and child processes would
 * be left running.
 */

const afterTest: Array<() => Promise<void>> = [];
const afterFile: Array<() => void | Promise<void>> = [];

/** Disposes `fn` after the current test. */
export function afterThisTest(fn: () => Promise<void>): void {
  afterTest.push(fn);
}

/** Runs `fn` once after every test of the current file. */
export function afterThisFile(fn: () => void | Promise<void>): void {
  afterFile.push(fn);
}

/** Undoes what the test left, last made first. */
export async function disposeTestLeftovers(): Promise<void> {
  while (afterTest.length > 0) await afterTest.pop()!();
}

export async function runFileChecks(): Promise<void> {
  while (afterFile.length > 0) await afterFile.shift()!();
}
