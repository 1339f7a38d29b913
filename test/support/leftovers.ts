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
/** A set: a helper may ask for its check on every call, and the check runs once. */
const afterFile = new Set<() => void | Promise<void>>();

/** Disposes `fn` after the current test. */
export function afterThisTest(fn: () => Promise<void>): void {
  afterTest.push(fn);
}

/** Runs `fn` once after every test of the current file, however many times it is asked for. */
export function afterThisFile(fn: () => void | Promise<void>): void {
  afterFile.add(fn);
}

/** Undoes what the test left, last made first: all of it, even after one fails (then that failure is thrown). */
export function disposeTestLeftovers(): Promise<void> {
  return runAll(afterTest.splice(0).reverse());
}

/** The checks of the file just run, in the order they were asked for, all of them even after one fails. */
export function runFileChecks(): Promise<void> {
  const checks = [...afterFile];
  afterFile.clear();
  return runAll(checks);
}

/** None is left for the next test or file: it would fail there, or leave a process or schema behind. */
async function runAll(steps: Array<() => void | Promise<void>>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) await Promise.resolve().then(step).catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0];
}
