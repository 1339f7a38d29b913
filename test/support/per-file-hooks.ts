/**
 * A setup file: vitest runs it before each test file, so these hooks belong to every file, including the second and
 * later files a worker runs in the same module graph (test/support/leftovers.ts says why they cannot live there).
 */
import { afterAll, afterEach } from 'vitest';
import { disposeTestLeftovers, runFileChecks } from './leftovers.ts';

afterEach(disposeTestLeftovers);
afterAll(runFileChecks);
